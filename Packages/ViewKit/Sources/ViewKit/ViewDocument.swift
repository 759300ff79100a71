import Foundation

/// A view tree with its format version: what `msa view ROUTE --json` prints and what both
/// renderers share as fixtures.
public struct ViewDocument: Codable, Sendable, Equatable {
  /// The format version this package writes and reads.
  public static let currentVersion = 1

  /// The format version of this document.
  public var version: Int
  /// The tree.
  public var root: ViewNode

  /// A document at the current version.
  public init(version: Int = ViewDocument.currentVersion, root: ViewNode) {
    self.version = version
    self.root = root
  }

  enum CodingKeys: String, CodingKey {
    case version, root
  }

  /// Decodes a document; a version newer than ``currentVersion`` is refused.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    guard version <= Self.currentVersion else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container,
        debugDescription: ViewKitStrings.text(
          "view.unsupportedVersion", .english,
          ["version": String(version), "supported": String(Self.currentVersion)]))
    }
    root = try container.decode(ViewNode.self, forKey: .root)
  }

  /// Pretty-printed JSON with sorted keys: stable, diff-friendly.
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// Reads a document written by ``jsonData()``.
  public static func decode(from data: Data) throws -> ViewDocument {
    try JSONDecoder().decode(ViewDocument.self, from: data)
  }
}
