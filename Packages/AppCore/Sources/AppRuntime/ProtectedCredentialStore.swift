import Essentials
import Foundation
import LocalStore

/// Passwords in the sandbox's `credentials.json` (``FileCredentialStore``: owner-only, written
/// atomically) and, on iOS, with complete file protection: the file cannot be read while the
/// phone is locked. Every write applies the protection again, since an atomic write replaces
/// the file.
public final class ProtectedCredentialStore: CredentialStore {
  /// The file store underneath.
  public let file: FileCredentialStore

  /// A store for `credentials.json` in `directory`.
  public init(directory: URL) {
    file = FileCredentialStore(directory: directory)
  }

  /// The stored password of an instance, or `nil`.
  public func password(for instanceID: String) throws(CredentialError) -> String? {
    try file.password(for: instanceID)
  }

  /// Stores (or replaces) an instance's password.
  public func setPassword(_ password: String, for instanceID: String) throws(CredentialError) {
    try file.setPassword(password, for: instanceID)
    try protect()
  }

  /// Forgets an instance's password.
  public func removePassword(for instanceID: String) throws(CredentialError) {
    try file.removePassword(for: instanceID)
    try protect()
  }

  /// The instances with a stored password.
  public func instanceIDsWithPasswords() throws(CredentialError) -> [String] {
    try file.instanceIDsWithPasswords()
  }

  /// When and where a device refused the stored password.
  public func refusal(for instanceID: String) throws(CredentialError) -> PasswordRefusal? {
    try file.refusal(for: instanceID)
  }

  /// Remembers that the stored password was refused.
  public func recordRefusal(of password: String, for instanceID: String, origin: String, at: Date)
    throws(CredentialError)
  {
    try file.recordRefusal(of: password, for: instanceID, origin: origin, at: at)
    try protect()
  }

  /// The file protection this platform gives `credentials.json`: `complete` on iOS, nil
  /// where there is none (the owner-only mode is all).
  public static var protection: String? {
    #if os(iOS)
      FileProtectionType.complete.rawValue
    #else
      nil
    #endif
  }

  private func protect() throws(CredentialError) {
    #if os(iOS)
      let path = file.fileURL.path
      guard FileManager.default.fileExists(atPath: path) else { return }
      do {
        try FileManager.default.setAttributes(
          [.protectionKey: FileProtectionType.complete], ofItemAtPath: path)
      } catch {
        throw .unwritable(path: path, reason: "cannot set file protection")
      }
    #endif
  }
}
