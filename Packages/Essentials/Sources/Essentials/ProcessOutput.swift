import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes to the process's standard output and error, and decides what a failed write means.
///
/// A reader that went away (`EPIPE`: `msa … | head`, a pager quit) ends the process quietly
/// with status 0, as git does. Any other failure (`> /dev/full`, an I/O error) writes one line
/// to standard error and ends the process with status 1. Before either exit, ``beforeExit``
/// runs (the app removes its temporary files there). SIGPIPE must be ignored for this to
/// see `EPIPE` (``ignoreBrokenPipeSignal()``).
public enum ProcessOutput {
  /// Runs before the process ends because of a failed write.
  public static let beforeExit = Locked<@Sendable () -> Void>({})
  /// The line written to standard error when standard output fails; given the system's
  /// reason. The app sets it in the user's language.
  public static let failureLine = Locked<@Sendable (String) -> String>({ reason in
    "msa: cannot write to standard output: \(reason)"
  })

  /// Writes `text` to standard output.
  public static func writeOutput(_ text: String) {
    write(text, to: STDOUT_FILENO)
  }

  /// Writes `text` to standard error.
  public static func writeError(_ text: String) {
    write(text, to: STDERR_FILENO)
  }

  /// Makes a write to a closed pipe fail with `EPIPE` instead of killing the process.
  public static func ignoreBrokenPipeSignal() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Writes all of `text` to `descriptor`, ending the process as described above on failure.
  public static func write(_ text: String, to descriptor: Int32) {
    guard let code = writeAll(Array(text.utf8), to: descriptor) else { return }
    if code == EPIPE { finish(0) }
    if descriptor != STDERR_FILENO {
      let line = failureLine.current(String(cString: strerror(code)))
      _ = writeAll(Array((line + "\n").utf8), to: STDERR_FILENO)
    }
    finish(1)
  }

  /// Writes every byte; returns the `errno` of a failure, nil on success.
  static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
  }

  /// Writes every byte of `buffer` to `descriptor`, retrying after interruptions and waiting
  /// while a non-blocking descriptor is full; returns the `errno` of a failure, nil on
  /// success. The one write loop of msa (files use it too).
  public static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    guard let base = buffer.baseAddress else { return nil }
    var offset = 0
    while offset < buffer.count {
      let written = systemWrite(descriptor, base + offset, buffer.count - offset)
      if written >= 0 {
        offset += written
        continue
      }
      let code = errno
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        _ = poll(&waiting, 1, 1000)
        continue
      }
      return code
    }
    return nil
  }

  private static func finish(_ status: Int32) -> Never {
    beforeExit.current()
    _exit(status)
  }
}

/// `write(2)`, named apart from ``ProcessOutput/write(_:to:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
  #else
    return Darwin.write(descriptor, buffer, count)
  #endif
}
