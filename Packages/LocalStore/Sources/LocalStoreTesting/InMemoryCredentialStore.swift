import Essentials
import Foundation
import LocalStore

/// Passwords in memory, for feature tests that do not test the credentials file itself.
public final class InMemoryCredentialStore: CredentialStore {
  private let passwords: Locked<[String: String]>
  private let refusals = Locked<[String: PasswordRefusal]>([:])

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
    refusals.withLock { $0[instanceID] = nil }
  }

  /// Forgets a password.
  public func removePassword(for instanceID: String) throws(CredentialError) {
    passwords.withLock { _ = $0.removeValue(forKey: instanceID) }
    refusals.withLock { $0[instanceID] = nil }
  }

  /// The refusal of the stored password, if any.
  public func refusal(for instanceID: String) throws(CredentialError) -> PasswordRefusal? {
    refusals.current[instanceID]
  }

  /// Remembers a refusal of the stored password.
  public func recordRefusal(of password: String, for instanceID: String, origin: String, at: Date)
    throws(CredentialError)
  {
    guard passwords.current[instanceID] == password else { return }
    refusals.withLock { $0[instanceID] = PasswordRefusal(origin: origin, at: at) }
  }

  /// Ids with a password, sorted.
  public func instanceIDsWithPasswords() throws(CredentialError) -> [String] {
    passwords.current.keys.sorted()
  }
}
