import Essentials
import Foundation
import ViewKit

/// What the add/edit form shows.
public struct InstanceFormState: Sendable {
  /// The instance being edited, nil when adding.
  public var editing: FleetRow?
  /// The values.
  public var draft: InstanceDraft
  /// The problem of each field, by field id.
  public var problems: [String: any LocalizedFailure]

  /// A form state.
  public init(
    editing: FleetRow?, draft: InstanceDraft, problems: [String: any LocalizedFailure] = [:]
  ) {
    self.editing = editing
    self.draft = draft
    self.problems = problems
  }
}

/// The add/edit form (`fleet/new`, `fleet/:ref/edit`) as form fields with per-field messages.
public enum InstanceFormView {
  /// The view of `state` in `language`.
  public static func view(_ state: InstanceFormState, language: AppLanguage) -> ViewNode {
    func text(_ key: String) -> String { FleetStrings.text(key, language) }
    func field(_ id: String, _ value: String, placeholder: String, secure: Bool = false)
      -> ViewNode
    {
      .field(
        FormField(
          id: id, label: text("form.\(id)"), value: value, placeholder: placeholder,
          message: state.problems[id]?.localizedMessage(language), isSecure: secure))
    }
    let fields: [ViewNode] = [
      field("name", state.draft.name, placeholder: text("form.name.placeholder")),
      field("url", state.draft.url, placeholder: "http://192.168.1.1:3000"),
      field("tags", state.draft.tags, placeholder: text("form.tags.placeholder")),
      field("group", state.draft.group, placeholder: text("value.ungrouped")),
      field(
        "password", state.editing?.hasPassword == true ? "••••" : "",
        placeholder: text("form.password.placeholder"), secure: true),
    ]
    let command: String
    if let editing = state.editing {
      command = "fleet edit \(editing.id) --revision \(editing.revision)"
    } else {
      command = "fleet add"
    }
    let save = ViewNode.button(
      Button(title: text("form.save"), command: command, role: .primary))
    let title =
      state.editing.map { FleetStrings.text("form.title.edit", language, ["name": $0.name]) }
      ?? text("form.title.new")
    return .screen(Screen(title: title, children: [.section(Section(children: fields)), save]))
  }
}
