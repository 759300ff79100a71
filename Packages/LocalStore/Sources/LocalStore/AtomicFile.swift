import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes files all at once: a temporary file in the same folder, created with its final
/// mode before any byte is written (so a secret is never readable by others, not even for a
/// moment), synced, then renamed into place. A failure leaves nothing behind.
public enum AtomicFile {
  /// Why a file was not written.
  public enum Failure: Error, Equatable {
    /// The file exists and overwriting was not allowed.
    case destinationExists(path: String)
    /// The system refused; `reason` is its message.
    case unwritable(path: String, reason: String)

    /// What went wrong, in the system's words.
    public var reason: String {
      switch self {
      case .destinationExists: "the file already exists"
      case .unwritable(_, let reason): reason
      }
    }
  }

  /// Writes `data` to `url` with `mode` (e.g. `0o600`); refuses an existing file unless
  /// `overwrite`.
  public static func write(_ data: Data, to url: URL, mode: mode_t = 0o644, overwrite: Bool)
    throws(Failure)
  {
    let path = url.path
    if !overwrite, FileManager.default.fileExists(atPath: path) {
      throw .destinationExists(path: path)
    }
    let temporary =
      url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw .unwritable(path: path, reason: String(cString: strerror(errno)))
    }
    var failure: String?
    if fchmod(descriptor, mode) != 0 {
      failure = String(cString: strerror(errno))
    } else {
      failure = data.withUnsafeBytes { buffer -> String? in
        var offset = 0
        while offset < buffer.count {
          let written = systemWrite(
            descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            return String(cString: strerror(errno))
          }
          offset += written
        }
        return nil
      }
      if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
    }
    close(descriptor)
    if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
    if let failure {
      unlink(temporary)
      throw .unwritable(path: path, reason: failure)
    }
  }
}

/// `write(2)`, named apart from the `write` above.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
  #else
    return Darwin.write(descriptor, buffer, count)
  #endif
}
