import ConstellationModel
import Foundation

// fuzz-requests: each input, as a request body, is decoded into every JSON type the server reads from a
// request, and the key set the CLI reads from the server, with the decoder the server uses
// (`JSONDecoder.constellation`, the request context's `requestDecoder`). What decodes must round-trip:
// encoded, decoded and encoded again, it gives the same bytes (`precondition`). The server's field checks
// (Sources/Server/Validation) are not reached: they live in the Server module, which would bring Hummingbird
// and NIO into the sanitized build.
//
// libFuzzer supplies `main`: `swift build --sanitize fuzzer` compiles this file as a library (Tools/fuzz).

private let bodyTypes: [any Codable.Type] = [
    RedeemRequest.self, ConnectionNoteChanges.self, DeviceChanges.self, DeviceLinkRedemption.self, RecoveryRedemption.self,
    NewProfile.self, ProfileChanges.self, NewEvent.self, NewOrganizer.self, JoinRequest.self, TokenRequest.self,
    ViewTokenRequest.self, EventVisibilityChange.self, DeletionConfirmation.self, KeySet.self,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequests(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    for type in bodyTypes { roundTrip(type, body) }
    return 0
}

private func roundTrip<Body: Codable>(_ type: Body.Type, _ body: Data) {
    guard let value = try? JSONDecoder.constellation.decode(Body.self, from: body) else { return }
    guard let encoded = try? JSONEncoder.constellation.encode(value) else {
        preconditionFailure("\(Body.self) decodes but does not encode")
    }
    let again = try? JSONEncoder.constellation.encode(JSONDecoder.constellation.decode(Body.self, from: encoded))
    precondition(again == encoded, "\(Body.self) does not round-trip: \(String(decoding: encoded, as: UTF8.self))")
}
