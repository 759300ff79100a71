/// An error that explains itself to a person in either language: what went wrong and how to
/// fix it. Every package's errors adopt it, so the app shows any of them the same way.
public protocol LocalizedFailure: Error, Sendable {
  /// The explanation in `language`.
  func localizedMessage(_ language: AppLanguage) -> String

  /// A stable machine code for scripts, the same in every language (`--json`'s
  /// `error.code`): the last part of the failure's catalogue key (`error.recordNotFound` →
  /// `recordNotFound`) or its case name; never the exit status, never translated.
  var failureCode: String { get }
}

extension LocalizedFailure {
  /// An enum's case name, else `failure`.
  public var failureCode: String { FailureCode.caseName(of: self) ?? "failure" }
}

/// Builds ``LocalizedFailure/failureCode`` values.
public enum FailureCode {
  /// The last dot-separated part of a catalogue key: `form.error.nameEmpty` → `nameEmpty`.
  public static func of(key: String) -> String {
    String(key.split(separator: ".").last ?? Substring(key))
  }

  /// The case name of an enum value with a payload (`invalidDate(option:value:)` →
  /// `invalidDate`), nil for anything else.
  public static func caseName(of value: Any) -> String? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else { return nil }
    return mirror.children.first?.label
  }
}
