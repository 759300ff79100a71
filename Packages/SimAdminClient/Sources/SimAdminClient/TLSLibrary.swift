import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// OpenSSL's libssl, opened with `dlopen` the first time an `https` origin is used, so the
/// client never links a TLS library at build time and a process that never speaks TLS never
/// loads one. Only non-variadic functions are looked up; macros such as
/// `SSL_set_tlsext_host_name` are spelled as the `SSL_ctrl` calls they expand to.
struct TLSLibrary: @unchecked Sendable {
  // `@unchecked`: C function pointers into a library that stays loaded for the process.
  typealias Handle = OpaquePointer
  typealias Ctrl = @convention(c) (Handle?, Int32, Int, UnsafeMutableRawPointer?) -> Int
  typealias MethodFunction = @convention(c) () -> Handle?
  typealias NewFunction = @convention(c) (Handle?) -> Handle?
  typealias FreeFunction = @convention(c) (Handle?) -> Void
  typealias StatusFunction = @convention(c) (Handle?) -> Int32
  typealias LoadLocationsFunction =
    @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
  typealias SetVerifyFunction = @convention(c) (Handle?, Int32, UnsafeRawPointer?) -> Void
  typealias SetOptionsFunction = @convention(c) (Handle?, UInt64) -> UInt64
  typealias SetFDFunction = @convention(c) (Handle?, Int32) -> Int32
  typealias SetHostFunction = @convention(c) (Handle?, UnsafePointer<CChar>?) -> Int32
  typealias ReadFunction = @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32) -> Int32
  typealias WriteFunction = @convention(c) (Handle?, UnsafeRawPointer?, Int32) -> Int32
  typealias GetErrorFunction = @convention(c) (Handle?, Int32) -> Int32
  typealias VoidFunction = @convention(c) () -> Void
  typealias VersionFunction = @convention(c) () -> UInt

  let clientMethod: MethodFunction
  let contextNew: NewFunction
  let contextFree: FreeFunction
  let contextSetDefaultVerifyPaths: StatusFunction
  let contextLoadVerifyLocations: LoadLocationsFunction
  let contextSetVerify: SetVerifyFunction
  let contextCtrl: Ctrl
  let contextSetOptions: SetOptionsFunction?
  let new: NewFunction
  let free: FreeFunction
  let setFD: SetFDFunction
  let setHost: SetHostFunction
  let ctrl: Ctrl
  let connect: StatusFunction
  let read: ReadFunction
  let write: WriteFunction
  let getError: GetErrorFunction
  let shutdown: StatusFunction
  let clearErrors: VoidFunction
  /// `OpenSSL_version_num`, e.g. `0x30000000` for 3.0.0.
  let version: UInt

  // MARK: - Constants (openssl/ssl.h)

  static let verifyPeer: Int32 = 0x01
  static let errorWantRead: Int32 = 2
  static let errorWantWrite: Int32 = 3
  static let errorSyscall: Int32 = 5
  static let errorZeroReturn: Int32 = 6
  static let ctrlMode: Int32 = 33
  static let ctrlSetHostName: Int32 = 55
  static let ctrlSetMinProtocolVersion: Int32 = 123
  static let hostNameType = 0
  static let modePartialWriteAndMovingBuffer = 0x1 | 0x2
  static let tls12Version = 0x0303
  static let optionIgnoreUnexpectedEOF: UInt64 = 1 << 7

  /// The library names tried, in order.
  static let candidateNames = ["libssl.so.3", "libssl.so"]

  /// The process's libssl, loaded on first use (then kept), or why it cannot be used.
  static let shared: Result<TLSLibrary, SimAdminError> = load(names: candidateNames)

  /// Opens the first of `names` that loads and looks up every function the client needs.
  static func load(names: [String]) -> Result<TLSLibrary, SimAdminError> {
    guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else {
      return .failure(.unreachable(.other(text("tls.libraryMissing", [:]))))
    }
    var missing: [String] = []
    func symbol<Function>(_ name: String, _: Function.Type) -> Function? {
      guard let address = dlsym(handle, name) else {
        missing.append(name)
        return nil
      }
      return unsafeBitCast(address, to: Function.self)
    }
    let clientMethod = symbol("TLS_client_method", MethodFunction.self)
    let contextNew = symbol("SSL_CTX_new", NewFunction.self)
    let contextFree = symbol("SSL_CTX_free", FreeFunction.self)
    let defaultPaths = symbol("SSL_CTX_set_default_verify_paths", StatusFunction.self)
    let loadLocations = symbol("SSL_CTX_load_verify_locations", LoadLocationsFunction.self)
    let setVerify = symbol("SSL_CTX_set_verify", SetVerifyFunction.self)
    let contextCtrl = symbol("SSL_CTX_ctrl", Ctrl.self)
    let new = symbol("SSL_new", NewFunction.self)
    let free = symbol("SSL_free", FreeFunction.self)
    let setFD = symbol("SSL_set_fd", SetFDFunction.self)
    let setHost = symbol("SSL_set1_host", SetHostFunction.self)
    let ctrl = symbol("SSL_ctrl", Ctrl.self)
    let connect = symbol("SSL_connect", StatusFunction.self)
    let read = symbol("SSL_read", ReadFunction.self)
    let write = symbol("SSL_write", WriteFunction.self)
    let getError = symbol("SSL_get_error", GetErrorFunction.self)
    let shutdown = symbol("SSL_shutdown", StatusFunction.self)
    let clearErrors = symbol("ERR_clear_error", VoidFunction.self)
    guard let clientMethod, let contextNew, let contextFree, let defaultPaths, let loadLocations,
      let setVerify, let contextCtrl, let new, let free, let setFD, let setHost, let ctrl,
      let connect, let read, let write, let getError, let shutdown, let clearErrors
    else {
      let functions = missing.joined(separator: ", ")
      return .failure(.unreachable(.other(text("tls.libraryIncomplete", ["functions": functions]))))
    }
    // Optional: absent before 1.1.0 (then a macro); only used to ignore a missing close_notify.
    let setOptions = dlsym(handle, "SSL_CTX_set_options").map {
      unsafeBitCast($0, to: SetOptionsFunction.self)
    }
    let version = dlsym(handle, "OpenSSL_version_num").map {
      unsafeBitCast($0, to: VersionFunction.self)()
    }
    return .success(
      TLSLibrary(
        clientMethod: clientMethod, contextNew: contextNew, contextFree: contextFree,
        contextSetDefaultVerifyPaths: defaultPaths, contextLoadVerifyLocations: loadLocations,
        contextSetVerify: setVerify, contextCtrl: contextCtrl, contextSetOptions: setOptions,
        new: new, free: free, setFD: setFD, setHost: setHost, ctrl: ctrl, connect: connect,
        read: read, write: write, getError: getError, shutdown: shutdown,
        clearErrors: clearErrors, version: version ?? 0))
  }

  /// A catalogue text in English: it travels inside `UnreachableReason.other`, next to the
  /// system's own (English) error texts.
  private static func text(_ key: String, _ arguments: [String: String]) -> String {
    SimAdminClientStrings.catalogue.text(key, .english, arguments)
  }
}
