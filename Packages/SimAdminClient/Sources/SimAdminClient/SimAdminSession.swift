import Essentials
import Foundation

/// The one door to one SimAdmin instance: every request to it goes through here.
///
/// It adds `Accept: application/json`, `User-Agent: MultiSimAdmin/<version>` and the
/// instance's session cookie (held in memory only, sent only to this origin). On a 401 from a
/// protected route it logs in once with the stored password, if any, and retries once; a 401
/// that re-login cannot fix drops the cookie. A password the device refused is never tried
/// again (the keeper remembers it across commands, the session within its own life), and
/// after a login that failed otherwise (no answer in time) the session does not try again for
/// ``loginRetryAfter``: at most one login per instance per command, and never the device's
/// alert (5 failed logins in 5 minutes). Results are decoded and mapped to
/// ``SimAdminError`` as PRODUCT §5 says, wrapped in ``SimAdminFailure``.
public actor SimAdminSession {
  /// The instance's origin, `http(s)://host[:port]`.
  public nonisolated let origin: URL
  private let nameBox: Locked<String>
  private let transport: any HTTPTransport
  private let storedPassword: @Sendable () -> StoredPassword
  private let passwordRefused: @Sendable (String) -> Void
  private let userAgent: String
  private let timeout: TimeInterval
  private let logger: Logger
  private let clock: AppClock
  private var cookie: String?
  /// The origin as checked once (`scheme://host[:port]`), or why it is not valid.
  private let base: Result<String, SimAdminError>
  private var reloginTask: Task<Result<Void, SimAdminError>, Never>?
  /// The last login after a 401 ran out of time.
  private var loginStalled = false
  /// The last login that failed: with which password, why, and when.
  private var failedLogin: (password: String, error: SimAdminError, at: Date)?

  /// Seconds a session waits after a login that failed for another reason than a refusal
  /// (no answer, the connection lost) before it logs in again: the device's own failed-login
  /// window, so a slow device that refuses a password never sees five in it.
  public static let loginRetryAfter: TimeInterval = 300

  /// A session for one instance.
  ///
  /// - Parameters:
  ///   - instanceName: how errors and logs name the instance.
  ///   - origin: `http(s)://host[:port]`; anything more is refused at request time.
  ///   - transport: carries requests (``HTTPTransports/standard(maxResponseBytes:)`` in
  ///     production).
  ///   - credentials: returns the stored password, or `nil` when none is stored (used when
  ///     `storedPassword` is not given).
  ///   - storedPassword: the stored password as it stands (``StoredPassword``).
  ///   - passwordRefused: told when the device refuses a password (to remember it).
  ///   - userAgentVersion: the app version for `User-Agent: MultiSimAdmin/<version>`.
  ///   - timeout: seconds allowed for each request.
  ///   - logger: receives one debug record per request (never the cookie or a password).
  ///   - clock: measures latency.
  public init(
    instanceName: String, origin: URL, transport: any HTTPTransport,
    credentials: @escaping @Sendable () -> String? = { nil },
    storedPassword: (@Sendable () -> StoredPassword)? = nil,
    passwordRefused: @escaping @Sendable (String) -> Void = { _ in }, userAgentVersion: String,
    timeout: TimeInterval = 10, logger: Logger = .disabled, clock: AppClock = .system
  ) {
    self.nameBox = Locked(instanceName)
    self.origin = origin
    self.base = Result { () throws(SimAdminError) in try SimAdminRoute.validatedBase(origin) }
    self.transport = transport
    self.storedPassword =
      storedPassword ?? {
        guard let password = credentials(), !password.isEmpty else { return .none }
        return .password(password)
      }
    self.passwordRefused = passwordRefused
    self.userAgent = "MultiSimAdmin/\(userAgentVersion)"
    self.timeout = timeout
    self.logger = logger.labeled("msa.upstream")
    self.clock = clock
  }

  /// How errors and logs name the instance.
  public nonisolated var instanceName: String { nameBox.current }

  /// Renames the instance (the session and its cookie stay).
  public nonisolated func rename(_ name: String) {
    nameBox.withLock { $0 = name }
  }

  /// Whether a session cookie is held.
  public var hasSession: Bool { cookie != nil }

  // MARK: - The door

  /// Sends `route` and decodes its `data` (or, for health, the whole body) as `T`.
  ///
  /// Login and logout go through ``login(password:)`` and ``logout()`` so the cookie is
  /// captured and dropped; sending them here does the same.
  ///
  /// `timeout` replaces the session's for this request only (a send waits for the modem).
  public func send<T: Decodable & Sendable>(
    _ route: SimAdminRoute, as type: T.Type = T.self, timeout: TimeInterval? = nil
  ) async throws(SimAdminFailure) -> T {
    do {
      switch route {
      case .login(let password):
        try await performLogin(password: password)
        return try Self.decodePayload(Data("{}".utf8), as: T.self, enveloped: false)
      case .logout:
        defer { cookie = nil }
        let response = try await exchange(route)
        return try decode(response, route: route, as: T.self)
      default:
        return try await performWithRelogin(route, as: T.self, timeout: timeout)
      }
    } catch {
      throw SimAdminFailure(instance: instanceName, endpoint: route.endpoint, error: error)
    }
  }

  /// Logs in with `password` and keeps the session cookie.
  public func login(password: String) async throws(SimAdminFailure) {
    let route = SimAdminRoute.login(password: password)
    do {
      try await performLogin(password: password)
    } catch {
      throw SimAdminFailure(instance: instanceName, endpoint: route.endpoint, error: error)
    }
  }

  /// Logs out on the device and drops the cookie (dropped even when the device is away).
  public func logout() async throws(SimAdminFailure) {
    let _: EmptyPayload = try await send(.logout)
  }

  // MARK: - Flow

  private func performWithRelogin<T: Decodable & Sendable>(
    _ route: SimAdminRoute, as: T.Type, timeout: TimeInterval? = nil
  ) async throws(SimAdminError) -> T {
    let sentCookie = cookie
    let first = try await exchange(route, timeout: timeout)
    if first.status != 401, !route.isPublic { loginStalled = false }
    guard first.status == 401, !route.isPublic, !Self.saysPasswordNotSet(first) else {
      return try decode(first, route: route, as: T.self)
    }
    try await relogin(replacing: sentCookie)
    let second = try await exchange(route, timeout: timeout)
    if second.status == 401 {
      cookie = nil
      throw Self.saysPasswordNotSet(second) ? .passwordNotSet : .loginRequired
    }
    return try decode(second, route: route, as: T.self)
  }

  /// Logs in again after a 401 that was answered to `stale`, unless another request already
  /// did (then its new cookie is used); concurrent 401s share one login. A caller that is
  /// cancelled stops waiting at once (``SimAdminError/cancelled``); the login goes on for the
  /// others.
  private func relogin(replacing stale: String?) async throws(SimAdminError) {
    if let cookie, cookie != stale { return }
    let task: Task<Result<Void, SimAdminError>, Never>
    if let running = reloginTask {
      task = running
    } else {
      cookie = nil
      let password: String
      switch storedPassword() {
      case .none: throw .loginRequired
      case .refused: throw .wrongPassword
      case .password(let stored): password = stored
      }
      if let failed = failedLogin, failed.password == password {
        // Refused: never again. Failed otherwise: not again within the retry interval.
        if failed.error == .wrongPassword { throw .wrongPassword }
        if clock.seconds(since: failed.at) < Self.loginRetryAfter { throw failed.error }
      }
      loginStalled = false
      task = Task { () -> Result<Void, SimAdminError> in
        let result: Result<Void, SimAdminError>
        do throws(SimAdminError) {
          try await self.performLogin(password: password)
          result = .success(())
        } catch {
          result = .failure(error)
        }
        self.loginEnded(result)
        return result
      }
      reloginTask = task
    }
    try await LoginWait.value(of: task).get()
  }

  private func loginEnded(_ result: Result<Void, SimAdminError>) {
    reloginTask = nil
    if case .failure(let error) = result, error == .timeout || error == .cancelled {
      loginStalled = true
    }
  }

  /// Whether the login this session started after a 401 has not answered: it is still
  /// running, or it ran out of time. A probe whose calls ran out of time then blames the
  /// auth layer, not the layer the calls were for.
  public var isLoginUnanswered: Bool { reloginTask != nil || loginStalled }

  private func performLogin(password: String) async throws(SimAdminError) {
    let route = SimAdminRoute.login(password: password)
    let response: HTTPResponse
    do {
      response = try await exchange(route)
      let _: EmptyPayload = try decode(response, route: route, as: EmptyPayload.self)
    } catch {
      cookie = nil
      if error != .cancelled { failedLogin = (password, error, clock.now()) }
      // Remembered beyond this session (if it is still the stored password): no command,
      // follow loop or screen tries it again.
      if error == .wrongPassword { passwordRefused(password) }
      throw error
    }
    failedLogin = nil
    if let value = Self.sessionCookie(in: response.headers["set-cookie"]) {
      cookie = value.isEmpty ? nil : value
    }
  }

  /// Builds, decorates and sends one request; logs its outcome without secrets.
  private func exchange(_ route: SimAdminRoute, timeout: TimeInterval? = nil)
    async throws(SimAdminError) -> HTTPResponse
  {
    var request = try route.request(base: base.get(), origin: origin)
    request.headers["Accept"] = "application/json"
    request.headers["User-Agent"] = userAgent
    if let cookie { request.headers["Cookie"] = "simadmin_session=\(cookie)" }
    let start = clock.now()
    do {
      let response = try await send(request, timeout: timeout ?? self.timeout)
      RequestTrace.note(
        DeviceRequest(
          method: route.method.rawValue, route: route.pathTemplate, status: response.status,
          bytes: response.body.count,
          milliseconds: Int((clock.seconds(since: start) * 1000).rounded())))
      // The record's metadata is built only when it would be kept (seven requests per
      // device in a fleet refresh, at the default level none is).
      if logsRequests {
        logger.debug(
          "upstream request",
          metadata: [
            "instance": instanceName, "method": route.method.rawValue,
            "route": route.pathTemplate, "status": String(response.status),
            "bytes": String(response.body.count),
            "ms": Self.milliseconds(clock.seconds(since: start)),
          ])
      }
      return response
    } catch {
      RequestTrace.note(
        DeviceRequest(
          method: route.method.rawValue, route: route.pathTemplate, status: nil, bytes: nil,
          milliseconds: Int((clock.seconds(since: start) * 1000).rounded()),
          failure: error.reasonKey))
      if logsRequests {
        logger.debug(
          "upstream request failed",
          metadata: [
            "instance": instanceName, "method": route.method.rawValue,
            "route": route.pathTemplate, "reason": error.reasonKey,
            "ms": Self.milliseconds(clock.seconds(since: start)),
          ])
      }
      throw error
    }
  }

  /// `request` through the transport, its failure as the device error of the same name.
  private func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(SimAdminError)
    -> HTTPResponse
  {
    do {
      return try await transport.send(request, timeout: timeout)
    } catch {
      throw SimAdminError(error)
    }
  }

  /// Whether the logger keeps debug records (one per request).
  private var logsRequests: Bool { logger.logLevel <= .debug }

  // MARK: - Decoding

  private func decode<T: Decodable & Sendable>(
    _ response: HTTPResponse, route: SimAdminRoute, as: T.Type
  ) throws(SimAdminError) -> T {
    if let error = Self.error(for: response, route: route) {
      if error == .loginRequired || error == .passwordNotSet { cookie = nil }
      throw error
    }
    return try Self.decodePayload(
      response.body, as: T.self, enveloped: route.isEnveloped, endpoint: route.endpoint)
  }

  /// Decodes a response body. ``JSONCursorDecodable`` payloads (the SMS lists and the answers
  /// a connection test reads, `ProbeAnswerReading.swift`) take the fast path first, which
  /// gives exactly what `JSONDecoder` would or steps aside; `fastPath: false` is the plain
  /// `JSONDecoder` path (the differential tests compare the two).
  ///
  /// An `ok` answer to `endpoint` without what ``RouteShapes`` says it promises is
  /// ``SimAdminError/missingField(_:)``, never an empty value. The fast path only accepts
  /// answers that keep the promise (an SMS list with a `messages` array), checked on its one
  /// pass over the body.
  static func decodePayload<T: Decodable & Sendable>(
    _ body: Data, as: T.Type, enveloped: Bool, fastPath: Bool = true, endpoint: String? = nil
  ) throws(SimAdminError) -> T {
    let decoder = JSONDecoder()
    func checkPromises() throws(SimAdminError) {
      guard let endpoint else { return }
      if let missing = RouteShapes.standard.missingPromise(in: body, endpoint: endpoint) {
        throw .missingField(missing)
      }
    }
    if !enveloped {
      if fastPath, let readable = T.self as? any JSONCursorDecodable.Type,
        let fast = readable.bare(reading: body) as? T
      {
        return fast
      }
      let value: T
      do { value = try decoder.decode(T.self, from: body) } catch {
        throw .malformedResponse(Self.describe(error))
      }
      try checkPromises()
      return value
    }
    let envelope: Envelope<T>
    if fastPath, let readable = T.self as? any JSONCursorDecodable.Type,
      let fast = readable.envelope(reading: body) as? Envelope<T>
    {
      envelope = fast
    } else if T.self == SmsMessageList.self, let (repaired, marker) = UTF8Repair.marking(body) {
      // Invalid UTF-8 (which the fast path refuses): repaired, its messages marked.
      let list = try decodePayload(
        repaired, as: SmsMessageList.self, enveloped: enveloped, fastPath: fastPath)
      guard let payload = list.unmarking(marker) as? T else {
        throw .malformedResponse("invalid UTF-8")
      }
      return payload
    } else {
      do { envelope = try decoder.decode(Envelope<T>.self, from: body) } catch {
        throw .malformedResponse(Self.describe(error))
      }
      if envelope.isOK { try checkPromises() }
    }
    guard envelope.isOK else { throw .upstream(message: envelope.message) }
    if let data = envelope.data { return data }
    if let empty = EmptyPayload() as? T { return empty }
    throw .missingField("data")
  }

  /// The error a response stands for, or `nil` when it is a 2xx JSON answer to decode.
  static func error(for response: HTTPResponse, route: SimAdminRoute) -> SimAdminError? {
    let status = response.status
    switch status {
    case 200..<300:
      guard response.isJSON else {
        let type = response.contentType.isEmpty ? "no content type" : response.contentType
        return .malformedResponse("expected application/json, got \(type)")
      }
      return nil
    case 300..<400:
      return .redirected(host: redirectHost(response.headers["location"]))
    case 401:
      if saysPasswordNotSet(response) { return .passwordNotSet }
      if case .login = route { return .wrongPassword }
      return .loginRequired
    case 403:
      return .noPermission
    case 404:
      if response.isJSON, let message = errorMessage(response.body) {
        return .upstream(message: message)
      }
      return .notSupported
    case 405:
      return .notSupported
    case 400..<500:
      if case .login = route, saysPasswordNotSet(response) { return .passwordNotSet }
      if response.isJSON, let message = errorMessage(response.body) {
        return .upstream(message: message)
      }
      return .httpStatus(status)
    default:
      return .httpStatus(status)
    }
  }

  /// SimAdmin's text for "protection is on but no admin password is set" (`auth.rs`).
  static let passwordNotSetMessage = "管理员密码尚未设置"

  /// Whether an error answer says the device has no admin password set (a 401 from the
  /// middleware, a 400 from the login call).
  static func saysPasswordNotSet(_ response: HTTPResponse) -> Bool {
    (400..<500).contains(response.status) && response.isJSON
      && errorMessage(response.body) == passwordNotSetMessage
  }

  static func errorMessage(_ body: Data) -> String? {
    guard let envelope = try? JSONDecoder().decode(Envelope<EmptyPayload>.self, from: body),
      !envelope.isOK, !envelope.message.isEmpty
    else { return nil }
    return envelope.message
  }

  static func redirectHost(_ location: String?) -> String {
    guard let location, !location.isEmpty else { return "?" }
    guard let url = URL(string: location), let host = url.host else { return location }
    return url.port.map { "\(host):\($0)" } ?? host
  }

  /// The `simadmin_session` value in a `Set-Cookie` header: `""` when it is being cleared
  /// (`Max-Age=0` or empty), `nil` when the header does not set it.
  static func sessionCookie(in header: String?) -> String? {
    guard let header, let range = header.range(of: "simadmin_session=") else { return nil }
    let rest = header[range.upperBound...]
    let value = rest.prefix { $0 != ";" && $0 != "," && !$0.isWhitespace }
    let cookieText = rest.split(separator: ",", maxSplits: 1).first.map(String.init) ?? ""
    let expired = cookieText.split(separator: ";").contains { attribute in
      let pair = attribute.trimmingCharacters(in: .whitespaces).lowercased()
      guard pair.hasPrefix("max-age=") else { return false }
      return (Int(pair.dropFirst("max-age=".count)) ?? 1) <= 0
    }
    return expired ? "" : String(value)
  }

  static func describe(_ error: any Error) -> String {
    guard let decodingError = error as? DecodingError else { return String(describing: error) }
    switch decodingError {
    case .dataCorrupted(let context): return "not JSON (\(context.debugDescription))"
    case .keyNotFound(let key, _): return "missing \(key.stringValue)"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return "unexpected value at \(path.isEmpty ? "top level" : path)"
    @unknown default: return "unreadable"
    }
  }

  static func milliseconds(_ seconds: TimeInterval) -> String {
    String(Int((seconds * 1000).rounded()))
  }
}

/// Waits for a shared login task, or stops waiting when the waiting task is cancelled (the
/// login itself goes on). Resumed exactly once, by whichever comes first.
private final class LoginWait: Sendable {
  typealias Outcome = Result<Void, SimAdminError>

  private enum State {
    case idle
    case waiting(CheckedContinuation<Outcome, Never>)
    case finished(Outcome)
    case done
  }

  private let state = Locked(State.idle)

  static func value(of task: Task<Outcome, Never>) async -> Outcome {
    let wait = LoginWait()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        wait.install(continuation)
        Task { wait.finish(await task.value) }
      }
    } onCancel: {
      wait.finish(.failure(.cancelled))
    }
  }

  private func install(_ continuation: CheckedContinuation<Outcome, Never>) {
    let early = state.withLock { state -> Outcome? in
      guard case .finished(let outcome) = state else {
        state = .waiting(continuation)
        return nil
      }
      state = .done
      return outcome
    }
    if let early { continuation.resume(returning: early) }
  }

  private func finish(_ outcome: Outcome) {
    let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
      switch state {
      case .idle:
        state = .finished(outcome)
        return nil
      case .waiting(let continuation):
        state = .done
        return continuation
      case .finished, .done:
        return nil
      }
    }
    continuation?.resume(returning: outcome)
  }
}
