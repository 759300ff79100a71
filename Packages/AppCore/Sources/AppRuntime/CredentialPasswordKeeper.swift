import Essentials
import Foundation
import LocalStore
import SimAdminClient

/// The connector's passwords, from the store's credential store, with refusals remembered
/// there (PRODUCT §5): no command, follow loop or screen logs in with a refused password
/// again until the password or the instance's origin changes.
public struct CredentialPasswordKeeper: PasswordKeeper {
  private let credentials: @Sendable () -> (any CredentialStore)?
  private let clock: AppClock

  /// Reads the credential store given by `credentials` when a device asks (so a password
  /// stored meanwhile counts); `clock` stamps refusals.
  public init(
    clock: AppClock, credentials: @escaping @Sendable () -> (any CredentialStore)?
  ) {
    self.credentials = credentials
    self.clock = clock
  }

  /// The stored password as it stands for the device at `origin`.
  public func storedPassword(for instanceID: String, origin: URL) -> StoredPassword {
    guard let store = credentials() else { return .none }
    switch store.loginPassword(for: instanceID, origin: origin.absoluteString) {
    case .none: return .none
    case .password(let password): return .password(password)
    case .refused(let refusal): return .refused(at: refusal.at)
    }
  }

  /// Remembers the refusal next to the password (if it is still the stored one).
  public func passwordRefused(_ password: String, for instanceID: String, origin: URL) {
    try? credentials()?.recordRefusal(
      of: password, for: instanceID, origin: origin.absoluteString, at: clock.now())
  }
}
