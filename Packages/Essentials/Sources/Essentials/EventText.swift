/// Log events and reasons in words, in either language.
///
/// A log record's message is a stable event code (`messages.synced`) and a reason is a stable
/// code (`refused`, `client.error.timeout`); the words live in this package's catalogue under
/// `event.<code>` and `reason.<code>`, so every package — and the log center, which imports no
/// feature — shows them the same way. A new event or reason needs only a catalogue entry.
public enum EventText {
  /// The sentence for event `code` with its metadata filled in, or nil when the catalogue has
  /// none (a record written before events had codes keeps its own text). A `reason` value is
  /// given as its sentence.
  public static func event(
    _ code: String, _ language: AppLanguage, _ metadata: [String: String] = [:]
  ) -> String? {
    let catalogue = EssentialsStrings.catalogue
    guard catalogue.entries["event." + code] != nil else { return nil }
    var arguments = metadata
    if let reason = metadata["reason"], !reason.isEmpty {
      arguments["reason"] = Self.reason(reason, language)
    }
    for key in ["from", "to", "status"] {
      if let value = metadata[key] { arguments[key] = status(value, language) }
    }
    return catalogue.text("event." + code, language, arguments)
  }

  /// The plain-language sentence for reason `code`, or nil when the catalogue has none.
  public static func reasonIfKnown(_ code: String, _ language: AppLanguage) -> String? {
    let catalogue = EssentialsStrings.catalogue
    guard catalogue.entries["reason." + code] != nil else { return nil }
    return catalogue.text("reason." + code, language)
  }

  /// The plain-language sentence for reason `code`; an unknown code is shown as it is.
  public static func reason(_ code: String, _ language: AppLanguage) -> String {
    reasonIfKnown(code, language) ?? code
  }

  /// An instance status code (`online`, `loginRequired`) in words; unknown ones as they are.
  public static func status(_ code: String, _ language: AppLanguage) -> String {
    let catalogue = EssentialsStrings.catalogue
    guard catalogue.entries["status." + code] != nil else { return code }
    return catalogue.text("status." + code, language)
  }

  /// Every event and reason code the catalogue knows, for tests.
  public static var knownCodes: (events: [String], reasons: [String]) {
    let keys = EssentialsStrings.catalogue.entries.keys.sorted()
    return (
      keys.filter { $0.hasPrefix("event.") }.map { String($0.dropFirst(6)) },
      keys.filter { $0.hasPrefix("reason.") }.map { String($0.dropFirst(7)) }
    )
  }
}
