import Foundation

/// What msa holds for an instance's login.
public enum StoredPassword: Sendable, Equatable {
  /// No password is stored.
  case none
  /// The stored password.
  case password(String)
  /// The stored password was refused by the device at this origin at `at`: it is not tried
  /// again until the password or the origin changes (PRODUCT §5).
  case refused(at: Date)
}

/// Where sessions find an instance's password and tell that the device refused it.
///
/// The app keeps refusals next to the passwords (the credential store), so no command, follow
/// loop or screen logs in with a refused password again: SimAdmin alerts its owner after 5
/// failed logins in 5 minutes (SIMADMIN-API §4).
public protocol PasswordKeeper: Sendable {
  /// The stored password of `instanceID`, as it stands for the device at `origin`.
  func storedPassword(for instanceID: String, origin: URL) -> StoredPassword
  /// The device at `origin` refused `password` for `instanceID`.
  func passwordRefused(_ password: String, for instanceID: String, origin: URL)
}

/// Passwords from a closure; refusals are not remembered beyond a session's own memory.
public struct ClosurePasswordKeeper: PasswordKeeper {
  private let lookup: @Sendable (String) -> String?

  /// Reads passwords with `lookup` (instance id → password).
  public init(_ lookup: @escaping @Sendable (String) -> String?) {
    self.lookup = lookup
  }

  /// The password `lookup` gives, or none.
  public func storedPassword(for instanceID: String, origin: URL) -> StoredPassword {
    guard let password = lookup(instanceID), !password.isEmpty else { return .none }
    return .password(password)
  }

  /// Not remembered here.
  public func passwordRefused(_ password: String, for instanceID: String, origin: URL) {}
}
