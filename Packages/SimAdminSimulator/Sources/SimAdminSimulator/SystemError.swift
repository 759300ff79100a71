#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text of a C `errno` value.
enum SystemError {
  static func text(_ code: Int32) -> String {
    guard let message = strerror(code) else { return "errno \(code)" }
    return String(cString: message) + " (errno \(code))"
  }
}
