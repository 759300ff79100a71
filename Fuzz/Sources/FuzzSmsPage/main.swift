import Foundation
import FuzzDriver

@testable import SimAdminClient

/// One page of a device's SMS list (`/api/sms` envelope) on arbitrary bytes: the fast
/// `JSONCursor` path must give exactly what `JSONDecoder` gives, or step aside.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSmsPage(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let start else { return 0 }
  let body = Data(UnsafeRawBufferPointer(UnsafeBufferPointer(start: start, count: count)))
  let fast = Result { () throws(SimAdminError) in
    try SimAdminSession.decodePayload(body, as: SmsMessageList.self, enveloped: true)
  }
  let plain = Result { () throws(SimAdminError) in
    try SimAdminSession.decodePayload(
      body, as: SmsMessageList.self, enveloped: true, fastPath: false)
  }
  switch (fast, plain) {
  case (.success(let a), .success(let b)):
    guard a == b else { fatalError("fast path read \(a), JSONDecoder read \(b)") }
  case (.failure, .failure):
    break
  default:
    fatalError("fast path gave \(fast), JSONDecoder gave \(plain)")
  }
  return 0
}

@_cdecl("FuzzSmsPage_main")
func fuzzSmsPageMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  msa_fuzz_run(argc, argv, fuzzSmsPage)
}
