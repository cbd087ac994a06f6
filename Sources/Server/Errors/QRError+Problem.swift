import ConstellationModel
import QR

extension QRError: ProblemConvertible {
    package var problem: Problem {
        Problem(.qrFailed, detail: description)
    }
}
