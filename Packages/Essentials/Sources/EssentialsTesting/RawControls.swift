import Essentials

/// Finds what a terminal would act on in output, checked byte by byte.
public enum RawControls {
  /// Descriptions (`0x1B at byte 12`, `U+202E at byte 40`) of every raw control in `output`:
  /// bytes below 0x20 other than the line feed, DEL, and the UTF-8 of C1 and bidi controls.
  /// With `allowingColour`, an SGR colour sequence (`ESC [ digits;… m`) is not reported.
  public static func find(in output: String, allowingColour: Bool = false) -> [String] {
    let bytes = Array(output.utf8)
    var found: [String] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if allowingColour, byte == 0x1B, let end = UntrustedText.sgrEndForTesting(bytes, index) {
        index = end
        continue
      }
      if byte != 0x0A && (byte < 0x20 || byte == 0x7F) {
        found.append("0x" + String(byte, radix: 16, uppercase: true) + " at byte \(index)")
      }
      index += 1
    }
    var offset = 0
    for scalar in output.unicodeScalars {
      if scalar.value >= 0x80, UntrustedText.isControl(scalar) {
        found.append("U+" + String(scalar.value, radix: 16, uppercase: true) + " at byte \(offset)")
      }
      offset += String(scalar).utf8.count
    }
    return found
  }
}
