/// A tiny seeded generator (SplitMix64): the same seed always gives the same data (also for
/// tests that want random input that repeats exactly).
public struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  /// A generator starting from `seed`.
  public init(seed: UInt64) { state = seed }

  /// A generator for one device: `seed` mixed with an FNV-1a hash of `name`.
  init(seed: UInt64, name: String) {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    state = seed ^ hash
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state = state &+ 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A random element of a non-empty array.
  mutating func pick<T>(_ items: [T]) -> T {
    items[Int(next() % UInt64(items.count))]
  }

  /// `count` (1…18) random decimal digits, leading zeros kept.
  mutating func digits(_ count: Int) -> String {
    var limit: UInt64 = 1
    for _ in 0..<count { limit &*= 10 }
    let text = String(next() % limit)
    return text.count < count ? String(repeating: "0", count: count - text.count) + text : text
  }

  /// `count` random lower-case hex digits.
  mutating func hex(_ count: Int) -> String {
    var text = ""
    while text.count < count {
      let word = String(next(), radix: 16)
      text += String(repeating: "0", count: 16 - word.count) + word
    }
    return String(text.prefix(count))
  }

  /// A money-like amount with two decimals, e.g. `"12.05"`, between `low` and `high` units.
  mutating func amount(_ low: Int, _ high: Int) -> String {
    let cents = int(in: (low * 100)...(high * 100))
    let fraction = cents % 100
    return "\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// A double in `range`.
  mutating func double(in range: ClosedRange<Double>) -> Double {
    Double.random(in: range, using: &self)
  }

  /// An int in `range`.
  mutating func int(in range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }
}
