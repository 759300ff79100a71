import Essentials
import FeatureKit
import Foundation
import LocalStore

#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// Adding a node (`fleet/new`) or editing one (`fleet/:ref/edit`): name, address, tags,
/// group and password (a secure field), checked as they are typed; Save stores it, tests the
/// device and goes back with what the test found.
@MainActor
final class InstanceFormModel: PhoneScreenModel {
  /// The group picker's choice.
  enum GroupChoice: Hashable {
    /// No group.
    case none
    /// An existing group, by name.
    case existing(String)
    /// A new group, named in ``InstanceFormModel/newGroup``.
    case new
  }

  /// Where saving stands.
  enum Progress: Equatable {
    case idle
    case saving
    case testing(String)
  }

  let context: PhoneContext
  let reference: String?
  let changes = PhoneChanges()

  /// The node being edited, nil when adding.
  private(set) var editing: FleetRow? { didSet { changes.send() } }
  /// Whether the node and the groups were read.
  private(set) var isLoaded = false { didSet { changes.send() } }
  /// Why the node could not be read (edit only).
  private(set) var loadFailure: String? { didSet { changes.send() } }
  /// The existing groups, by name.
  private(set) var groups: [String] = [] { didSet { changes.send() } }
  private var instances: [Instance] = []
  private var groupValues: [InstanceGroup] = []

  var name = "" { didSet { fieldsChanged() } }
  var url = "" { didSet { fieldsChanged() } }
  /// Tags, comma separated.
  var tags = "" { didSet { fieldsChanged() } }
  var group: GroupChoice = .none { didSet { fieldsChanged() } }
  /// The new group's name when ``group`` is `.new`.
  var newGroup = "" { didSet { fieldsChanged() } }
  /// A password to store (empty: none when adding, keep the stored one when editing).
  var password = "" { didSet { changes.send() } }
  /// Editing: forget the stored password.
  var removePassword = false { didSet { changes.send() } }

  /// The problems of the fields, by field id (`name`, `url`, `tags`, `group`).
  private(set) var problems: [String: String] = [:] { didSet { changes.send() } }
  /// Whether Save was pressed once (problems show from then on, or once a field is typed in).
  private(set) var showsProblems = false { didSet { changes.send() } }
  private(set) var progress: Progress = .idle { didSet { changes.send() } }
  /// Why the last save failed.
  private(set) var failure: String? { didSet { changes.send() } }

  init(_ context: PhoneContext, reference: String?) {
    self.context = context
    self.reference = reference
  }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    FleetStrings.text(key, context.language, arguments)
  }

  var title: String {
    reference == nil ? text("phone.form.addTitle") : text("phone.form.editTitle")
  }

  // MARK: - Life cycle

  func appear() async {
    do {
      let store = try FleetPhone.store(context)
      let reference = reference
      let (instances, groups, row) = try await context.offMain {
        let registry = InstanceRepository(store: store)
        let instances = try registry.list()
        let groups = try registry.listGroups()
        let row = try reference.map {
          try FleetRow.load([registry.resolve(reference: $0)], store: store)[0]
        }
        return (instances, groups, row)
      }
      self.instances = instances
      groupValues = groups
      self.groups = groups.map(\.name).sorted()
      if let row {
        editing = row
        name = row.name
        url = row.origin
        tags = row.tags.joined(separator: ", ")
        group = row.group.map(GroupChoice.existing) ?? .none
      }
      loadFailure = nil
    } catch {
      loadFailure = FleetPhone.message(error, context)
    }
    isLoaded = true
    fieldsChanged()
    showsProblems = false
  }

  /// A form has nothing to fetch.
  func refresh() async {}

  // MARK: - Fields

  private func fieldsChanged() {
    showsProblems = showsProblems || isLoaded
    failure = nil
    var draft = InstanceDraft(name: name, url: url, tags: tags, group: "")
    if case .existing(let name) = group { draft.group = name }
    var found = draft.problems(instances: instances, groups: groupValues, editingID: editing?.id)
      .mapValues { FleetPhone.message($0, context) }
    if group == .new {
      let trimmed = newGroup.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty {
        found["group"] = text("phone.form.newGroupEmpty")
      } else if let error = Result(catching: { try InstanceRepository.validName(trimmed) })
        .failureValue
      {
        found["group"] = FleetPhone.message(error, context)
      }
    }
    problems = found
    changes.send()
  }

  /// The problem shown under the field `id`, if any.
  func problem(_ id: String) -> String? {
    showsProblems ? problems[id] : nil
  }

  var isBusy: Bool { progress != .idle }

  // MARK: - Save

  /// Stores the node (adding or editing), then tests it and goes back saying what the test
  /// found. Problems keep the form open with each field's reason.
  func save() async {
    showsProblems = true
    guard problems.isEmpty, !isBusy, loadFailure == nil else { return }
    progress = .saving
    failure = nil
    do {
      if group == .new {
        let trimmed = newGroup.trimmingCharacters(in: .whitespaces)
        if !groups.contains(where: { $0.lowercased() == trimmed.lowercased() }) {
          _ = try await context.run(["groups", "add", trimmed])
        }
      }
      guard let id = try await store() else {
        progress = .idle
        context.close(notice: text("phone.form.unchanged"))
        return
      }
      progress = .testing(name.trimmingCharacters(in: .whitespaces))
      // The test decides what the user is told; its own failure is not the save's.
      _ = try? await context.run(["fleet", "test", id])
      let store = try FleetPhone.store(context)
      let row = try await context.offMain {
        try FleetRow.load([InstanceRepository(store: store).resolve(reference: id)], store: store)[
          0]
      }
      progress = .idle
      password = ""
      context.close(
        notice: text(
          editing == nil ? "phone.form.added" : "phone.form.saved",
          ["name": row.name, "status": FleetPhone.statusLine(row, context.language)]))
    } catch {
      progress = .idle
      failure = FleetPhone.message(error, context)
    }
  }

  /// Runs `fleet add` or `fleet edit`; the new or edited node's id, nil when nothing changed.
  private func store() async throws -> String? {
    let trimmedName = name.trimmingCharacters(in: .whitespacesAndNewlines)
    let trimmedURL = url.trimmingCharacters(in: .whitespaces)
    let tagList = tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    let groupName: String? =
      switch group {
      case .none: nil
      case .existing(let name): name
      case .new: newGroup.trimmingCharacters(in: .whitespaces)
      }
    let secret = password.isEmpty ? nil : password
    guard let editing else {
      var arguments = ["fleet", "add", "--name", trimmedName, "--url", trimmedURL]
      for tag in tagList { arguments += ["--tag", tag] }
      if let groupName { arguments += ["--group", groupName] }
      if secret != nil { arguments.append("--password-stdin") }
      let result = try await context.run(arguments, input: secret)
      return (result.payload as? WrittenPayload)?.instance.id
    }
    var arguments = ["fleet", "edit", editing.id]
    if trimmedName != editing.name { arguments += ["--name", trimmedName] }
    if let origin = try? InstanceOrigin(parsing: trimmedURL), origin.string != editing.origin {
      arguments += ["--url", trimmedURL]
    }
    let old = Set(editing.tags)
    let normalized = Set(tagList.map { $0.lowercased() })
    for tag in tagList where !old.contains(tag.lowercased()) && !old.contains(tag) {
      arguments += ["--tag", tag]
    }
    for tag in editing.tags.sorted() where !normalized.contains(tag.lowercased()) {
      arguments += ["--untag", tag]
    }
    if groupName?.lowercased() != editing.group?.lowercased() {
      arguments += groupName.map { ["--group", $0] } ?? ["--no-group"]
    }
    if secret != nil {
      arguments.append("--password-stdin")
    } else if removePassword && editing.hasPassword {
      arguments.append("--clear-password")
    }
    guard arguments.count > 3 else { return nil }
    arguments += ["--revision", String(editing.revision)]
    let result = try await context.run(arguments, input: secret)
    return (result.payload as? WrittenPayload)?.instance.id ?? editing.id
  }

  // MARK: - Words

  /// The group picker's choices: none, every group, a new one.
  var groupChoices: [(choice: GroupChoice, title: String)] {
    [(.none, text("phone.form.noGroup"))] + groups.map { (.existing($0), $0) }
      + [(.new, text("phone.form.newGroup"))]
  }

  var passwordLabel: String {
    editing?.hasPassword == true
      ? text("phone.form.passwordChange") : text("phone.form.password")
  }

  var progressText: String? {
    switch progress {
    case .idle: nil
    case .saving: text("phone.form.saving")
    case .testing(let name): text("phone.form.testing", ["name": name])
    }
  }

  func outline() -> PhoneOutline {
    var status: [PhoneText] = []
    if !isLoaded { status.append(PhoneText(context.common("phone.loading"))) }
    if let loadFailure { status.append(PhoneText(loadFailure)) }
    if let progressText { status.append(PhoneText(progressText)) }
    let groupTitle = groupChoices.first { $0.choice == group }?.title ?? ""
    var inputs = [
      PhoneOutline.Input(text("form.name"), value: name, problem: problem("name")),
      PhoneOutline.Input(text("form.url"), value: url, problem: problem("url")),
      PhoneOutline.Input(text("phone.form.tags"), value: tags, problem: problem("tags")),
      PhoneOutline.Input(
        text("form.group"), value: groupTitle, kind: "picker",
        options: groupChoices.map(\.title), problem: group == .new ? nil : problem("group")),
    ]
    if group == .new {
      inputs.append(
        PhoneOutline.Input(
          text("phone.form.newGroupName"), value: newGroup, problem: problem("group")))
    }
    inputs.append(PhoneOutline.Input(passwordLabel, value: password, kind: "secure"))
    if editing?.hasPassword == true {
      inputs.append(
        PhoneOutline.Input(
          text("phone.form.removePassword"), value: removePassword ? "on" : "off", kind: "toggle"))
    }
    return PhoneOutline(
      title: PhoneText(title, .title), status: status,
      sections: [
        PhoneOutline.Section(rows: [PhoneOutline.Row([PhoneText(text("phone.form.hint"))])])
      ],
      actions: [
        PhoneText(context.common("phone.cancel"), .toolbar),
        PhoneText(context.common("phone.save"), .toolbar),
      ], inputs: inputs, notice: failure.map { PhoneText($0) })
  }

  #if os(iOS) && canImport(SwiftUI)
    func makeView() -> AnyView { AnyView(InstanceFormScreen(model: self)) }
  #endif
}

extension Result {
  /// The error, if this is a failure.
  fileprivate var failureValue: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
