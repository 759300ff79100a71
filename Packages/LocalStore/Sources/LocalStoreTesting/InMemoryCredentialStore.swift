import Essentials
import Foundation
import LocalStore

/// Passwords in memory, for feature tests that do not test the credentials file itself.
public final class InMemoryCredentialStore: CredentialStore {
  private let passwords: Locked<[String: String]>

  /// A store holding `passwords` (instance id → password).
  public init(_ passwords: [String: String] = [:]) {
    self.passwords = Locked(passwords)
  }

  /// The stored password, or `nil`.
  public func password(for instanceID: String) throws(CredentialError) -> String? {
    passwords.current[instanceID]
  }

  /// Stores a password.
  public func setPassword(_ password: String, for instanceID: String) throws(CredentialError) {
    passwords.withLock { $0[instanceID] = password }
  }

  /// Forgets a password.
  public func removePassword(for instanceID: String) throws(CredentialError) {
    passwords.withLock { _ = $0.removeValue(forKey: instanceID) }
  }

  /// Ids with a password, sorted.
  public func instanceIDsWithPasswords() throws(CredentialError) -> [String] {
    passwords.current.keys.sorted()
  }
}
