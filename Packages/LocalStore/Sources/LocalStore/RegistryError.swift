import Essentials
import Foundation

/// Why a registry read or write was refused; nothing was written.
public enum RegistryError: LocalizedStoreError, Equatable {
  /// What is wrong with a name.
  public enum NameProblem: Sendable, Equatable {
    /// Empty after trimming.
    case empty
    /// More than ``InstanceRepository/maximumNameLength`` characters.
    case tooLong(count: Int)
    /// Holds a control or bidi character (``UntrustedText/isControl(_:)``), named as `U+001B`;
    /// `shown` is the name with its controls made visible.
    case control(shown: String, character: String)
  }

  /// An instance or group name is empty, too long, or holds a control character.
  case invalidName(reason: NameProblem)
  /// A tag holds a control or bidi character; `shown` is the tag with it made visible.
  case invalidTag(shown: String, character: String)
  /// Another instance already has this origin.
  case duplicateOrigin(origin: String, existingName: String)
  /// Another instance already has this name, compared without case and surrounding spaces.
  case duplicateName(name: String, existingName: String)
  /// The edit named an old revision; `current` is the instance as stored now.
  case conflict(expected: Int, current: Instance)
  /// No instance matches the id, name or prefix.
  case notFound(reference: String)
  /// Several instances match.
  case ambiguous(reference: String, candidates: [Instance])
  /// No group matches.
  case unknownGroup(reference: String)
  /// A group with this name (case-insensitively) exists.
  case duplicateGroup(name: String)
  /// The store is read-only; `reason` is the issue that made it so (`nil`: on request).
  case readOnly(reason: StoreIssue?)

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
      LocalStoreStrings.text(key, language, arguments)
    }
    switch self {
    case .invalidName(.empty):
      return text("registry.error.nameEmpty")
    case .invalidName(.tooLong(let count)):
      return text(
        "registry.error.nameTooLong",
        ["count": String(count), "limit": String(InstanceRepository.maximumNameLength)])
    case .invalidName(.control(let shown, let character)):
      return text("registry.error.nameControl", ["name": shown, "character": character])
    case .invalidTag(let shown, let character):
      return text("registry.error.tagControl", ["tag": shown, "character": character])
    case .duplicateOrigin(let origin, let existingName):
      return text("registry.error.duplicateOrigin", ["origin": origin, "name": existingName])
    case .duplicateName(let name, let existingName):
      return text("registry.error.duplicateName", ["name": name, "existing": existingName])
    case .conflict(let expected, let current):
      return text(
        "registry.error.conflict",
        ["name": current.name, "expected": String(expected), "current": String(current.revision)])
    case .notFound(let reference):
      return text("registry.error.notFound", ["reference": reference])
    case .ambiguous(let reference, let candidates):
      let list = candidates.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
      return text("registry.error.ambiguous", ["reference": reference, "candidates": list])
    case .unknownGroup(let reference):
      return text("registry.error.unknownGroup", ["reference": reference])
    case .duplicateGroup(let name):
      return text("registry.error.duplicateGroup", ["name": name])
    case .readOnly(let reason):
      let why = reason?.localizedMessage(language) ?? text("registry.error.readOnly.requested")
      return text("registry.error.readOnly", ["reason": why])
    }
  }
}
