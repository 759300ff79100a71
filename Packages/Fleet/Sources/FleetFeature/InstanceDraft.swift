import Essentials
import Foundation
import LocalStore

/// The add/edit form's values as typed, and their per-field validation.
public struct InstanceDraft: Sendable, Hashable {
  /// The name field.
  public var name: String
  /// The address field, e.g. `http://192.168.1.1:3000`.
  public var url: String
  /// Tags, comma separated.
  public var tags: String
  /// The group's name (empty: ungrouped).
  public var group: String

  /// A draft.
  public init(name: String = "", url: String = "", tags: String = "", group: String = "") {
    self.name = name
    self.url = url
    self.tags = tags
    self.group = group
  }

  /// Whether nothing was typed yet.
  public var isBlank: Bool {
    name.isEmpty && url.isEmpty && tags.isEmpty && group.isEmpty
  }

  /// The problems per field id (`name`, `url`, `tags`, `group`); empty when the draft can be
  /// saved. A name, tag or group holding a control or bidi character is refused.
  ///
  /// - Parameters:
  ///   - instances: the registry, for the duplicate-origin check.
  ///   - groups: the existing groups.
  ///   - editingID: the instance being edited (its own origin is not a duplicate).
  public func problems(
    instances: [Instance], groups: [InstanceGroup], editingID: String? = nil
  ) -> [String: any LocalizedFailure] {
    var problems: [String: any LocalizedFailure] = [:]
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty {
      problems["name"] = FleetFailure("form.error.nameEmpty")
    } else if trimmed.count > InstanceRepository.maximumNameLength {
      problems["name"] = FleetFailure(
        "form.error.nameTooLong",
        ["count": String(trimmed.count), "limit": String(InstanceRepository.maximumNameLength)])
    } else {
      do {
        _ = try InstanceRepository.validName(trimmed)
      } catch {
        problems["name"] = error
      }
      if problems["name"] == nil,
        let other = instances.first(where: {
          $0.id != editingID
            && InstanceRepository.nameKey($0.name) == InstanceRepository.nameKey(trimmed)
        })
      {
        problems["name"] = FleetFailure("form.error.duplicateName", ["name": other.name])
      }
    }
    do {
      try InstanceRepository.checkTags(tags.split(separator: ",").map(String.init))
    } catch {
      problems["tags"] = error
    }
    do {
      let origin = try InstanceOrigin(parsing: url)
      if let other = instances.first(where: { $0.origin == origin && $0.id != editingID }) {
        problems["url"] = FleetFailure(
          "form.error.duplicateOrigin", ["origin": origin.string, "name": other.name])
      }
    } catch {
      problems["url"] = error
    }
    let groupName = group.trimmingCharacters(in: .whitespaces)
    if !groupName.isEmpty, UntrustedText.containsControl(groupName) {
      do {
        _ = try InstanceRepository.validName(groupName)
      } catch {
        problems["group"] = error
      }
    } else if !groupName.isEmpty,
      !groups.contains(where: { $0.name.lowercased() == groupName.lowercased() })
    {
      problems["group"] = FleetFailure("form.error.unknownGroup", ["group": groupName])
    }
    return problems
  }
}
