import Essentials

/// A key the full-screen console offers on a route, bound to one of the feature's commands,
/// to another route, or to a view option of the screen.
///
/// The console never hard-codes what a key does: `t` on the fleet workbench runs whatever
/// command the fleet route declares for `t`. Arguments may hold placeholders:
/// `{selection}` expands to the marked rows' ids (or the row under the cursor), `{rows}` to
/// every visible row (one run per row), and `{param:NAME}` to the route's `:NAME` parameter.
public struct RouteAction: Sendable {
  /// A value the console asks for before running the command: one field of the action's form,
  /// passed as `--option value`, or as a positional value.
  public struct Input: Sendable {
    /// The option name, e.g. `text` for `--text`; for a positional value, the field's id.
    public let option: String
    /// The field's label.
    public let label: LocalizedString
    /// Typed characters are shown as dots.
    public let isSecret: Bool
    /// The value the field starts with (placeholders as in ``RouteAction/arguments``); nil
    /// starts from the screen's own form field of the same id, if it has one.
    public let prefill: String?
    /// Whether the field may stay empty (an empty optional field is not passed at all).
    public let isOptional: Bool
    /// Whether the value is passed as a positional argument instead of `--option value`.
    public let isPositional: Bool

    /// A field passed as `--option value`.
    public init(
      option: String, label: LocalizedString, isSecret: Bool = false, prefill: String? = nil,
      isOptional: Bool = false
    ) {
      self.option = option
      self.label = label
      self.isSecret = isSecret
      self.prefill = prefill
      self.isOptional = isOptional
      self.isPositional = false
    }

    /// A field passed as a positional value (e.g. a file name), identified by `id`.
    public static func positional(
      _ id: String, label: LocalizedString, prefill: String? = nil
    ) -> Input {
      Input(id: id, label: label, prefill: prefill)
    }

    private init(id: String, label: LocalizedString, prefill: String?) {
      self.option = id
      self.label = label
      self.isSecret = false
      self.prefill = prefill
      self.isOptional = false
      self.isPositional = true
    }

    /// The command-line words for `value`: none for an empty optional field.
    public func arguments(_ value: String) -> [String] {
      if isOptional && value.isEmpty { return [] }
      return isPositional ? [value] : ["--\(option)", value]
    }
  }

  /// Keys the console keeps for itself on every screen (moving, searching, filtering,
  /// marking, copying a code, watching, help, quitting). A route may not bind them.
  public static let consoleKeys: Set<Character> = [
    "q", "j", "k", "g", "G", "/", "f", " ", "?", "c", "w",
  ]
  /// The console's refresh key: a route may bind it to its own refresh (a sync, a test of
  /// every row), which then runs whenever the screen is refreshed.
  public static let refreshKey: Character = "r"

  /// The key, e.g. `t`.
  public let key: Character
  /// What the key does, for the `?` help and the footer.
  public let title: LocalizedString
  /// The command line, e.g. `["fleet", "test", "{selection}"]`.
  public let arguments: [String]
  /// The form filled in first.
  public let inputs: [Input]
  /// For destructive actions: the question asked first, with `{count}` and `{targets}`
  /// filled with how many and which items it affects.
  public let confirmation: LocalizedString?
  /// Whether the action needs a row (marked or under the cursor).
  public let needsSelection: Bool
  /// For navigation actions: the route to open instead of running a command, e.g.
  /// `device/{selection}`. A feature may name another feature's route this way without
  /// importing it; the console offers the key only when a route matches.
  public let opens: String?
  /// For a view option: the screen flag the key turns on and off (passed to the route's
  /// loader in ``RouteRequest/flags``), e.g. `bodies` to show message bodies in full.
  public let toggles: String?
  /// How a finished run reads, with `{count}` filled, e.g. "{count} tested"; nil for the
  /// console's generic "Done: <title>".
  public let outcome: LocalizedString?
  /// The table columns whose cells name a target row in a confirmation and a result, e.g.
  /// `["instance", "peer", "time"]` for a message; empty for the row's first cell (a list
  /// item's title).
  public let targetColumns: [String]

  /// An action bound to `key` that runs a command.
  public init(
    key: Character, title: LocalizedString, arguments: [String], inputs: [Input] = [],
    confirmation: LocalizedString? = nil, needsSelection: Bool = false,
    outcome: LocalizedString? = nil, targetColumns: [String] = []
  ) {
    self.targetColumns = targetColumns
    self.key = key
    self.title = title
    self.arguments = arguments
    self.inputs = inputs
    self.confirmation = confirmation
    self.needsSelection = needsSelection
    self.opens = nil
    self.toggles = nil
    self.outcome = outcome
  }

  /// A key that opens the route `opens` (placeholders as in ``arguments``).
  public init(key: Character, title: LocalizedString, opens: String, needsSelection: Bool = false) {
    self.key = key
    self.title = title
    self.arguments = []
    self.inputs = []
    self.confirmation = nil
    self.needsSelection = needsSelection
    self.opens = opens
    self.toggles = nil
    self.outcome = nil
    self.targetColumns = []
  }

  /// A key that turns the screen flag `toggles` on and off and reloads the screen.
  public init(key: Character, title: LocalizedString, toggles: String) {
    self.key = key
    self.title = title
    self.arguments = []
    self.inputs = []
    self.confirmation = nil
    self.needsSelection = false
    self.opens = nil
    self.toggles = toggles
    self.outcome = nil
    self.targetColumns = []
  }

  /// The route path a navigation action opens, for the row `selection`.
  public func openedPath(selection: String?, parameters: [String: String]) -> String? {
    guard let opens else { return nil }
    return Self.fill(opens, selection: selection, parameters: parameters)
  }

  /// `template` with `{selection}` and `{param:NAME}` replaced, per path segment.
  public static func fill(_ template: String, selection: String?, parameters: [String: String])
    -> String
  {
    template.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
      let part = String(part)
      if part == "{selection}" { return selection ?? "" }
      if part.hasPrefix("{param:"), part.hasSuffix("}") {
        return parameters[String(part.dropFirst(7).dropLast())] ?? ""
      }
      return part
    }.joined(separator: "/")
  }

  /// The command line with placeholders filled; `selection` holds the affected row ids.
  public func expandedArguments(selection: [String], parameters: [String: String]) -> [String] {
    arguments.flatMap { argument -> [String] in
      if argument == "{selection}" || argument == "{rows}" { return selection }
      if argument.hasPrefix("{param:"), argument.hasSuffix("}") {
        let name = String(argument.dropFirst(7).dropLast())
        return [parameters[name] ?? ""]
      }
      return [argument]
    }
  }

  /// The names of the `{param:NAME}` placeholders this action uses (arguments, route opened,
  /// prefilled fields).
  public var parameterNames: [String] {
    let words =
      arguments + (opens.map { $0.split(separator: "/").map(String.init) } ?? [])
      + inputs.compactMap(\.prefill)
    return words.compactMap { word in
      guard word.hasPrefix("{param:"), word.hasSuffix("}") else { return nil }
      return String(word.dropFirst(7).dropLast())
    }
  }
}
