import Foundation
import FuzzDriver
import ThemeKit

/// The W3C design-token loader on arbitrary bytes: it throws a `TokenError` or returns a
/// theme; every colour it resolves reports contrast without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokens(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let start else { return 0 }
  let data = Data(UnsafeRawBufferPointer(UnsafeBufferPointer(start: start, count: count)))
  guard let theme = try? Theme(jsonData: data) else { return 0 }
  for name in theme.tokenNames {
    _ = theme.value(named: name, appearance: .dark)
    if let colour = theme.color(named: name) {
      _ = Contrast.ratio(colour, RGBColor(r: 0, g: 0, b: 0))
      _ = colour.hex
    }
  }
  return 0
}

@_cdecl("FuzzTokens_main")
func fuzzTokensMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  msa_fuzz_run(argc, argv, fuzzTokens)
}
