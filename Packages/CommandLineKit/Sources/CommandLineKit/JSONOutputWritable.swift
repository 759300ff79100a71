import Essentials
import Foundation

/// The writer of `--json` payloads: Essentials' one ``JSONWriter``, whose default format is
/// the output's (pretty-printed with two spaces, `"key" : value`, slashes not escaped, every
/// control escaped as ``JSONOutput`` escapes it).
public typealias JSONOutputWriter = JSONWriter

/// A `--json` payload that writes itself through ``JSONOutputWriter`` instead of going through
/// `JSONEncoder`: the bytes are exactly those ``JSONOutput`` writes for its `Encodable` form
/// (its tests compare the two), only without building the encoder's tree first.
///
/// Members are written in the order `JSONEncoder`'s `.sortedKeys` gives (by their UTF-8
/// bytes) and an optional member that is `nil` is left out, as synthesized `Encodable` does.
public protocol JSONOutputWritable: Encodable {
  /// Writes the value at the writer's position.
  func write(to json: inout JSONOutputWriter)
}

extension JSONWriter {
  /// A value that writes itself.
  public mutating func value(_ value: some JSONOutputWritable) {
    value.write(to: &self)
  }

  /// `key` and `value`, unless `value` is nil.
  public mutating func member(_ name: String, _ value: (some JSONOutputWritable)?) {
    guard let value else { return }
    key(name)
    value.write(to: &self)
  }
}
