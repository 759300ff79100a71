/// Finds the name a user probably meant when they typed an unknown one.
enum Suggestion {
  /// The closest of `candidates` to `typed`: edit distance (with transpositions) of at most 2
  /// and less than the typed word's length, else (when `allowingPrefix`) the shortest candidate
  /// `typed` is a prefix of.
  static func closest(to typed: String, in candidates: [String], allowingPrefix: Bool = true)
    -> String?
  {
    guard !typed.isEmpty else { return nil }
    let typedCharacters = Array(typed.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in Set(candidates).sorted() {
      let distance = self.distance(typedCharacters, Array(candidate.lowercased()))
      guard distance <= 2, distance < typedCharacters.count else { continue }
      if best == nil || distance < best?.distance ?? .max {
        best = (candidate, distance)
      }
    }
    if let best { return best.name }
    guard allowingPrefix else { return nil }
    return
      candidates
      .filter { $0.lowercased().hasPrefix(typed.lowercased()) }
      .sorted { ($0.count, $0) < ($1.count, $1) }
      .first
  }

  /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
  /// neighbouring characters each cost 1.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, table[i - 2][j - 2] + 1)
        }
        table[i][j] = value
      }
    }
    return table[a.count][b.count]
  }
}
