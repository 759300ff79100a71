import Foundation
import FuzzDriver
import SimAdminClient

/// The strict JSON reader (the `JSONCursor` engine behind every device answer) on arbitrary
/// bytes, with each lone-surrogate policy and a depth chosen by the first byte. Rejecting lone
/// surrogates may only refuse more documents, never read one differently.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONCursor(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let start, count > 0 else { return 0 }
  let input = UnsafeRawBufferPointer(UnsafeBufferPointer(start: start, count: count))
  let depth = Int(input[0] & 0x7F)
  let bytes = UnsafeRawBufferPointer(rebasing: input.dropFirst())
  let replacing = try? JSONReader(maxDepth: depth, loneSurrogates: .replace).read(bytes)
  let rejecting = try? JSONReader(maxDepth: depth, loneSurrogates: .reject).read(bytes)
  if let rejecting, rejecting != replacing {
    fatalError("rejecting lone surrogates changed an accepted document: \(rejecting)")
  }
  return 0
}

@_cdecl("FuzzJSONCursor_main")
func fuzzJSONCursorMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  msa_fuzz_run(argc, argv, fuzzJSONCursor)
}
