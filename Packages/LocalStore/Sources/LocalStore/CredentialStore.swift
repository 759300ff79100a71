import Essentials
import Foundation

/// Keeps instance passwords outside the database.
///
/// Passwords never enter the database, logs or exports; features reach them only through
/// this protocol.
public protocol CredentialStore: Sendable {
  /// The stored password of an instance, or `nil`.
  func password(for instanceID: String) throws(CredentialError) -> String?
  /// Stores (or replaces) an instance's password.
  func setPassword(_ password: String, for instanceID: String) throws(CredentialError)
  /// Forgets an instance's password; nothing happens when none is stored.
  func removePassword(for instanceID: String) throws(CredentialError)
  /// The ids of instances that have a stored password, sorted.
  func instanceIDsWithPasswords() throws(CredentialError) -> [String]
}

/// Why credentials cannot be read or written.
public enum CredentialError: LocalizedStoreError, Equatable {
  /// The file allows group or other access; it is refused until fixed.
  case insecurePermissions(path: String, mode: String)
  /// The file is not a credentials file; it is left untouched.
  case malformed(path: String, detail: String)
  /// Reading failed.
  case unreadable(path: String, reason: String)
  /// Writing failed; the previous file is intact.
  case unwritable(path: String, reason: String)
  /// The Keychain refused (Apple platforms).
  case keychain(status: Int32)

  /// The message in `language`, naming the file and the fix.
  public func localizedMessage(_ language: AppLanguage) -> String {
    switch self {
    case .insecurePermissions(let path, let mode):
      LocalStoreStrings.text(
        "credentials.error.insecure", language, ["path": path, "mode": mode])
    case .malformed(let path, let detail):
      LocalStoreStrings.text(
        "credentials.error.malformed", language, ["path": path, "detail": detail])
    case .unreadable(let path, let reason):
      LocalStoreStrings.text(
        "credentials.error.unreadable", language, ["path": path, "reason": reason])
    case .unwritable(let path, let reason):
      LocalStoreStrings.text(
        "credentials.error.unwritable", language, ["path": path, "reason": reason])
    case .keychain(let status):
      LocalStoreStrings.text("credentials.error.keychain", language, ["status": String(status)])
    }
  }
}
