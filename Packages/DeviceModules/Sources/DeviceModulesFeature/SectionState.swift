import Essentials
import Foundation

/// One section as fetched: its status, its content when there is some, and when.
public struct SectionState: Sendable, Hashable, Encodable {
  /// Which section.
  public var section: DeviceSection
  /// Loaded, empty, or why not.
  public var status: SectionStatus
  /// The content, when ``status`` is `.loaded`.
  public var content: SectionContent?
  /// When the answer (or the failure) came; `nil` while loading.
  public var fetchedAt: Date?

  /// A section state.
  public init(
    section: DeviceSection, status: SectionStatus, content: SectionContent? = nil,
    fetchedAt: Date? = nil
  ) {
    self.section = section
    self.status = status
    self.content = content
    self.fetchedAt = fetchedAt
  }

  /// A section still being fetched.
  public static func loading(_ section: DeviceSection) -> SectionState {
    SectionState(section: section, status: .loading)
  }

  enum CodingKeys: String, CodingKey {
    case section, status, message, fetchedAt, data
  }

  /// `{section, status, message?, fetchedAt?, data?}`; `message` in the output's language
  /// (`--lang`), the device's own text for `upstreamError`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(section, forKey: .section)
    try container.encode(status.code, forKey: .status)
    try container.encodeIfPresent(status.message(AppLanguage.of(encoder)), forKey: .message)
    try container.encodeIfPresent(fetchedAt, forKey: .fetchedAt)
    try container.encodeIfPresent(content, forKey: .data)
  }
}
