#if os(Linux)
  internal import COpenSSL
  import Foundation
  import Glibc

  /// OpenSSL's libssl, opened with `dlopen` the first time an `https` origin is used, so the
  /// binary never links a TLS library and a process that never speaks TLS never loads one.
  ///
  /// Types and constants come from the system's OpenSSL headers through the headers-only
  /// `COpenSSL` module: each function is looked up with `dlsym` and cast to the pointer type
  /// of its declaration there (`msa_SSL_read_fn` is `__typeof__(SSL_read) *`). Macros such as
  /// `SSL_set_tlsext_host_name` are spelled as the `SSL_ctrl` calls they expand to.
  struct TLSLibrary: @unchecked Sendable {
    // `@unchecked`: C function pointers into a library that stays loaded for the process.
    typealias Handle = OpaquePointer

    let clientMethod: msa_TLS_client_method_fn
    let contextNew: msa_SSL_CTX_new_fn
    let contextFree: msa_SSL_CTX_free_fn
    let contextSetDefaultVerifyPaths: msa_SSL_CTX_set_default_verify_paths_fn
    let contextLoadVerifyLocations: msa_SSL_CTX_load_verify_locations_fn
    let contextSetVerify: msa_SSL_CTX_set_verify_fn
    let contextCtrl: msa_SSL_CTX_ctrl_fn
    let contextSetOptions: msa_SSL_CTX_set_options_fn?
    let new: msa_SSL_new_fn
    let free: msa_SSL_free_fn
    let setFD: msa_SSL_set_fd_fn
    let setHost: msa_SSL_set1_host_fn
    let ctrl: msa_SSL_ctrl_fn
    let connect: msa_SSL_connect_fn
    let read: msa_SSL_read_fn
    let write: msa_SSL_write_fn
    let getError: msa_SSL_get_error_fn
    let shutdown: msa_SSL_shutdown_fn
    let clearErrors: msa_ERR_clear_error_fn
    /// `OpenSSL_version_num`, e.g. `0x30000000` for 3.0.0.
    let version: UInt

    /// `SSL_OP_IGNORE_UNEXPECTED_EOF` exists from OpenSSL 3.0.0 on.
    static let firstVersionIgnoringUnexpectedEOF: UInt = 0x3000_0000

    /// The library names tried, in order.
    static let candidateNames = ["libssl.so.3", "libssl.so"]

    /// The process's libssl, loaded on first use (then kept), or why it cannot be used.
    static let shared: Result<TLSLibrary, HTTPTransportError> = load(names: candidateNames)

    /// Opens the first of `names` that loads and looks up every function the client needs.
    static func load(names: [String]) -> Result<TLSLibrary, HTTPTransportError> {
      guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first
      else {
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
      let clientMethod = symbol("TLS_client_method", msa_TLS_client_method_fn.self)
      let contextNew = symbol("SSL_CTX_new", msa_SSL_CTX_new_fn.self)
      let contextFree = symbol("SSL_CTX_free", msa_SSL_CTX_free_fn.self)
      let defaultPaths = symbol(
        "SSL_CTX_set_default_verify_paths", msa_SSL_CTX_set_default_verify_paths_fn.self)
      let loadLocations = symbol(
        "SSL_CTX_load_verify_locations", msa_SSL_CTX_load_verify_locations_fn.self)
      let setVerify = symbol("SSL_CTX_set_verify", msa_SSL_CTX_set_verify_fn.self)
      let contextCtrl = symbol("SSL_CTX_ctrl", msa_SSL_CTX_ctrl_fn.self)
      let new = symbol("SSL_new", msa_SSL_new_fn.self)
      let free = symbol("SSL_free", msa_SSL_free_fn.self)
      let setFD = symbol("SSL_set_fd", msa_SSL_set_fd_fn.self)
      let setHost = symbol("SSL_set1_host", msa_SSL_set1_host_fn.self)
      let ctrl = symbol("SSL_ctrl", msa_SSL_ctrl_fn.self)
      let connect = symbol("SSL_connect", msa_SSL_connect_fn.self)
      let read = symbol("SSL_read", msa_SSL_read_fn.self)
      let write = symbol("SSL_write", msa_SSL_write_fn.self)
      let getError = symbol("SSL_get_error", msa_SSL_get_error_fn.self)
      let shutdown = symbol("SSL_shutdown", msa_SSL_shutdown_fn.self)
      let clearErrors = symbol("ERR_clear_error", msa_ERR_clear_error_fn.self)
      guard let clientMethod, let contextNew, let contextFree, let defaultPaths, let loadLocations,
        let setVerify, let contextCtrl, let new, let free, let setFD, let setHost, let ctrl,
        let connect, let read, let write, let getError, let shutdown, let clearErrors
      else {
        let functions = missing.joined(separator: ", ")
        return .failure(
          .unreachable(.other(text("tls.libraryIncomplete", ["functions": functions]))))
      }
      // Optional: a macro before 1.1.0; only used to ignore a missing close_notify.
      let setOptions = dlsym(handle, "SSL_CTX_set_options").map {
        unsafeBitCast($0, to: msa_SSL_CTX_set_options_fn.self)
      }
      let version = dlsym(handle, "OpenSSL_version_num").map {
        unsafeBitCast($0, to: msa_OpenSSL_version_num_fn.self)()
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
      HTTPKitStrings.text(key, .english, arguments)
    }
  }
#endif
