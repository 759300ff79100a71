import Essentials

/// A key the full-screen console offers on a route, bound to one of the feature's commands.
///
/// The console never hard-codes what a key does: `t` on the fleet workbench runs whatever
/// command the fleet route declares for `t`. Arguments may hold placeholders:
/// `{selection}` expands to the marked rows' ids (or the row under the cursor), and
/// `{param:NAME}` to the route's `:NAME` parameter.
public struct RouteAction: Sendable {
  /// A value the console asks for before running the command, passed as `--option value`.
  public struct Input: Sendable {
    /// The option name, e.g. `text` for `--text`.
    public let option: String
    /// The prompt.
    public let label: LocalizedString
    /// Typed characters are shown as dots.
    public let isSecret: Bool

    /// An input asked for before the command runs.
    public init(option: String, label: LocalizedString, isSecret: Bool = false) {
      self.option = option
      self.label = label
      self.isSecret = isSecret
    }
  }

  /// The key, e.g. `t`.
  public let key: Character
  /// What the key does, for the `?` help and the footer.
  public let title: LocalizedString
  /// The command line, e.g. `["fleet", "test", "{selection}"]`.
  public let arguments: [String]
  /// Values asked for first.
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

  /// An action bound to `key`.
  public init(
    key: Character, title: LocalizedString, arguments: [String], inputs: [Input] = [],
    confirmation: LocalizedString? = nil, needsSelection: Bool = false
  ) {
    self.key = key
    self.title = title
    self.arguments = arguments
    self.inputs = inputs
    self.confirmation = confirmation
    self.needsSelection = needsSelection
    self.opens = nil
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
  }

  /// The route path a navigation action opens, for the row `selection`.
  public func openedPath(selection: String?, parameters: [String: String]) -> String? {
    guard let opens else { return nil }
    return opens.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
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
      if argument == "{selection}" { return selection }
      if argument.hasPrefix("{param:"), argument.hasSuffix("}") {
        let name = String(argument.dropFirst(7).dropLast())
        return [parameters[name] ?? ""]
      }
      return [argument]
    }
  }
}
