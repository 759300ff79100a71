import Foundation
import FuzzDriver

@testable import HTTPKit

/// The HTTP/1.x response parser on arbitrary bytes. The first input byte chooses how the rest
/// is cut into reads (as the socket would deliver it) and the body cap; the parse must end the
/// same way as one whole read, and never keep more body than the cap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let start, count > 0 else { return 0 }
  let input = UnsafeRawBufferPointer(UnsafeBufferPointer(start: start, count: count))
  let step = Int(input[0] & 0x3F) + 1
  let limit = input[0] & 0x40 == 0 ? 1 << 20 : Int(input[0] & 0x0F) * 7
  let bytes = UnsafeRawBufferPointer(rebasing: input.dropFirst())
  let whole = parse(bytes, step: bytes.count, limit: limit)
  let pieces = parse(bytes, step: step, limit: limit)
  guard whole == pieces else {
    fatalError("one read gave \(whole), reads of \(step) gave \(pieces)")
  }
  return 0
}

private struct Outcome: Equatable {
  var failure: ResponseParser.Failure?
  var complete = false
  var endedCleanly = false
  var status = 0
  var headers: [String: String] = [:]
  var body = Data()
  var keepAlive = false
}

private func parse(_ bytes: UnsafeRawBufferPointer, step: Int, limit: Int) -> Outcome {
  var parser = ResponseParser(limit: limit)
  var outcome = Outcome()
  var offset = 0
  repeat {
    let end = min(offset + max(step, 1), bytes.count)
    do {
      outcome.complete = try parser.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
    } catch {
      outcome.failure = error
      break
    }
    offset = end
  } while offset < bytes.count && !outcome.complete
  if outcome.failure == nil, !outcome.complete {
    outcome.endedCleanly = parser.finishAtEndOfStream()
  }
  guard parser.body.count <= limit else {
    fatalError("kept \(parser.body.count) body bytes over a cap of \(limit)")
  }
  outcome.status = parser.status
  outcome.headers = parser.headers
  outcome.body = parser.body
  outcome.keepAlive = parser.keepAlive
  if outcome.failure != nil {
    // After a failure only the failure counts: how far a parse got depends on the cut.
    outcome = Outcome(failure: outcome.failure)
  }
  return outcome
}

@_cdecl("FuzzHTTPResponse_main")
func fuzzHTTPResponseMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  msa_fuzz_run(argc, argv, fuzzHTTPResponse)
}
