import Essentials
import Foundation

/// The pool of per-instance sessions, keyed by instance id.
///
/// Asking for an instance whose origin changed replaces its session at once, so the old
/// cookie can never be sent to the new address.
public final class SimAdminConnector: Sendable {
  /// Carries every session's requests.
  public let transport: any HTTPTransport
  /// Seconds allowed per request.
  public let timeout: TimeInterval
  private let userAgentVersion: String
  private let logger: Logger
  private let clock: AppClock
  private let passwords: any PasswordKeeper
  private let sessions = Locked<[String: SimAdminSession]>([:])

  /// A connector.
  ///
  /// - Parameters:
  ///   - transport: shared by all sessions (default: ``HTTPTransports/standard(maxResponseBytes:)``,
  ///     a ``SocketTransport`` on Linux).
  ///   - timeout: seconds per request (default 10).
  ///   - userAgentVersion: the app version for `User-Agent`.
  ///   - logger: passed to each session.
  ///   - clock: passed to each session.
  ///   - credentials: the stored password of an instance id, or `nil` (nothing remembered of
  ///     a refusal beyond a session); ignored when `passwords` is given.
  ///   - passwords: where passwords are read and refusals remembered (the app's credential
  ///     store).
  public init(
    transport: any HTTPTransport = HTTPTransports.standard(), timeout: TimeInterval = 10,
    userAgentVersion: String, logger: Logger = .disabled, clock: AppClock = .system,
    credentials: @escaping @Sendable (String) -> String? = { _ in nil },
    passwords: (any PasswordKeeper)? = nil
  ) {
    self.transport = transport
    self.timeout = timeout
    self.userAgentVersion = userAgentVersion
    self.logger = logger
    self.clock = clock
    self.passwords = passwords ?? ClosurePasswordKeeper(credentials)
  }

  /// The session of `instanceID`, created on first use, replaced when `origin` changed.
  public func session(for instanceID: String, name: String, origin: URL) -> SimAdminSession {
    sessions.withLock { pool in
      if let existing = pool[instanceID], existing.origin == origin {
        if existing.instanceName != name { existing.rename(name) }
        return existing
      }
      let passwords = self.passwords
      let session = SimAdminSession(
        instanceName: name, origin: origin, transport: transport,
        storedPassword: { passwords.storedPassword(for: instanceID, origin: origin) },
        passwordRefused: { passwords.passwordRefused($0, for: instanceID, origin: origin) },
        userAgentVersion: userAgentVersion, timeout: timeout, logger: logger, clock: clock)
      pool[instanceID] = session
      return session
    }
  }

  /// Drops the session (and cookie) of `instanceID`, e.g. when the instance is deleted.
  public func forget(instanceID: String) {
    _ = sessions.withLock { $0.removeValue(forKey: instanceID) }
  }

  /// The ids that currently have a session object.
  public var instanceIDs: [String] {
    sessions.current.keys.sorted()
  }
}
