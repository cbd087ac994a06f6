import ConstellationModel
import QR

extension QRError: ProblemConvertible {
    package var problem: Problem {
        Problem(status: 422, code: "qr_failed", title: "The QR code could not be made", detail: description)
    }
}
