import Foundation

/// `--name value` options and the remaining positional arguments of one msa-bench command.
struct BenchOptions {
  /// The options by name (without the dashes).
  var values: [String: String] = [:]
  /// Arguments that are not options, in order.
  var positional: [String] = []

  /// Parses `arguments`; every `--name` takes the next argument as its value.
  init(_ arguments: ArraySlice<String>) throws {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      if argument.hasPrefix("--") {
        guard let value = iterator.next() else { throw BenchError("\(argument) needs a value") }
        values[String(argument.dropFirst(2))] = value
      } else {
        positional.append(argument)
      }
    }
  }

  /// The value of `--name`, or `fallback`.
  func string(_ name: String, _ fallback: String? = nil) throws -> String {
    guard let value = values[name] ?? fallback else { throw BenchError("--\(name) is required") }
    return value
  }

  /// The integer value of `--name`, or `fallback`.
  func int(_ name: String, _ fallback: Int) throws -> Int {
    guard let text = values[name] else { return fallback }
    guard let value = Int(text) else { throw BenchError("--\(name) must be a number") }
    return value
  }
}

/// A failure of the driver, with its message.
struct BenchError: Error, CustomStringConvertible {
  /// The message.
  var description: String

  /// An error saying `description`.
  init(_ description: String) { self.description = description }
}

/// Where the driver writes: one line at a time, flushed, so the script can read it at once.
enum BenchOutput {
  /// Writes `text` and a newline to standard output.
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  /// Writes `text` and a newline to standard error.
  static func error(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// Writes `value` as one line of JSON.
  static func json(_ value: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
    line(String(decoding: data, as: UTF8.self))
  }
}

/// Monotonic milliseconds (never the wall clock).
enum Stopwatch {
  /// How long `body` took, in milliseconds.
  static func milliseconds<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let value = try body()
    let end = DispatchTime.now().uptimeNanoseconds
    return (value, Double(end - start) / 1_000_000)
  }
}
