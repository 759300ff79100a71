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
  /// When and where a device refused the stored password of an instance; nil when it has not
  /// been refused since it was stored.
  func refusal(for instanceID: String) throws(CredentialError) -> PasswordRefusal?
  /// Remembers that the device at `origin` refused `password`, when that is still the stored
  /// password (one stored meanwhile is not marked). Storing or removing the password forgets
  /// the refusal.
  func recordRefusal(of password: String, for instanceID: String, origin: String, at: Date)
    throws(CredentialError)
}

/// What the credential store holds for logging in to one instance's device.
public enum LoginPassword: Sendable, Equatable {
  /// No password is stored.
  case none
  /// The stored password.
  case password(String)
  /// The stored password was refused by the device at this very origin.
  case refused(PasswordRefusal)
}

extension CredentialStore {
  /// The stored password of `instanceID` for logging in to the device at `origin`: refused
  /// when that device refused it since it was stored (a refusal at another origin no longer
  /// counts: the instance moved). A store that cannot be read gives `none`, as before.
  public func loginPassword(for instanceID: String, origin: String) -> LoginPassword {
    guard let password = (try? password(for: instanceID)) ?? nil, !password.isEmpty else {
      return .none
    }
    if let refusal = (try? refusal(for: instanceID)) ?? nil, refusal.origin == origin {
      return .refused(refusal)
    }
    return .password(password)
  }
}

/// A device refused an instance's stored password: msa does not log in with it again until
/// the password or the instance's origin changes (PRODUCT §5; a device alerts its owner after
/// 5 failed logins in 5 minutes).
public struct PasswordRefusal: Sendable, Hashable, Codable {
  /// The origin (`http://host:port`) of the device that refused it.
  public var origin: String
  /// When.
  public var at: Date

  /// A refusal.
  public init(origin: String, at: Date) {
    self.origin = origin
    self.at = at
  }
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
