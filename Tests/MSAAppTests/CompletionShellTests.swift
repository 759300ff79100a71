import Foundation
import LocalStore
import MessagesFeature
import SimAdminSimulator
import Testing

/// The scripts `msa completion bash|zsh|fish` print, loaded into the real shells with the real
/// `msa` executable on `PATH` and a real archive (issues 18 and 33).
///
/// The archive is synced from a simulated device over loopback; its first row is then copied
/// into hostile peers — a glob, a line feed, `$(…)`, backticks, quotes, ESC, a leading dash —
/// and 100,000 ordinary ones, so Tab reads a real SQLite file in msa's own schema. Each shell
/// is driven through its own completion machinery: bash through the function `complete -p`
/// names, called with `COMP_WORDS` as readline would; zsh through `compinit` and a real Tab in
/// an interactive zsh on a pseudo-terminal (`zpty`), reading the buffer zsh edited; fish
/// through `complete -C`. Every candidate must be exactly a peer, inserted as one word that
/// means exactly that peer, and nothing may run.
@Suite struct CompletionShellTests {
  /// The shell at one of the usual places. A missing shell fails the test (.ci/run installs
  /// all three) rather than skipping it.
  static func shell(_ name: String) throws -> URL {
    let found = ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"]
      .map(URL.init(fileURLWithPath:))
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(found, "\(name) is not installed: apt-get install \(name) (.ci/run does)")
  }

  /// What a shell printed, and whether it had to be killed at the deadline.
  struct Ran {
    let status: Int32
    let output: String
    let error: String
    let timedOut: Bool
  }

  /// Runs `shell` with msa's directory first on `PATH` and `home` as `MSA_HOME`, killed after
  /// `deadline` seconds: a guard against a hang (the glob of issue 33 made bash list the disk
  /// for 44 minutes), not a speed target — scripts/bench measures the speed.
  static func run(
    _ shell: URL, _ arguments: [String], home: URL, deadline: TimeInterval = 60
  ) throws -> Ran {
    let msa = try ArchiveKillTests.executable()
    let process = Process()
    process.executableURL = shell
    process.arguments = arguments
    process.currentDirectoryURL = home
    process.environment = [
      "PATH": msa.deletingLastPathComponent().path + ":/usr/bin:/bin",
      "MSA_HOME": home.path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": home.path,
      "TERM": "dumb",
    ]
    // Files of their own: the shells of one archive run side by side.
    let name = "\(shell.lastPathComponent)-\(UUID().uuidString)"
    let outputURL = home.appendingPathComponent("\(name).out")
    let errorURL = home.appendingPathComponent("\(name).err")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    defer {
      try? output.close()
      try? error.close()
    }
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let end = Date().addingTimeInterval(deadline)
    while process.isRunning && Date() < end { usleep(20_000) }
    let timedOut = process.isRunning
    if timedOut {
      process.terminate()
      usleep(200_000)
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    process.waitUntilExit()
    return Ran(
      status: process.terminationStatus,
      output: try String(contentsOf: outputURL, encoding: .utf8),
      error: try String(contentsOf: errorURL, encoding: .utf8), timedOut: timedOut)
  }

  // MARK: - The archive

  /// The peers an attacker chose, oldest first (the last is the newest message). `{canary}`
  /// is a file in the home that exists only if a shell ran the text.
  static let hostile = [
    "/*/*/*/*",
    "x\nfiles $(touch {canary}-newline)",
    "$(touch {canary}-dollar)",
    "`touch {canary}-backtick`",
    "O'Brien",
    "say \"hi\" \\ there",
    "\u{1B}]0;HACKED\u{07}evil",
    "--home=/tmp/evilhome",
    "中国移动 10086",
  ]

  /// How many ordinary peers the archive has besides the hostile ones.
  static let ordinaryPeers = 100_000

  /// The ordinary peer of the `index`th newest message (1 is the newest): its number falls
  /// as the messages get older, so the newest-first order is the opposite of the key order.
  static func ordinary(_ index: Int) -> String {
    "+86 139" + String(format: "%08d", ordinaryPeers + 1 - index)
  }

  /// A home whose archive holds the hostile peers (newest) and 100,000 ordinary ones; each
  /// test makes its own and removes it.
  struct Archive: Sendable {
    let home: URL
    let canary: String
    /// The hostile peers with `{canary}` filled in, oldest first.
    let hostile: [String]
  }

  static func makeArchive() async throws -> Archive {
    let home = try temporaryHome()
    let canary = home.appendingPathComponent("pwned").path
    let fleet = try await SimulatedFleet.start([DeviceProfile(name: "phone", smsCount: 1)])
    let device = try #require(fleet.devices.first)
    let added = try await msa(
      ["fleet", "add", "--name", "phone", "--url", device.origin.absoluteString], home: home)
    #expect(added.status == 0, "\(added.error)")
    let synced = try await msa(["messages", "sync"], home: home)
    await fleet.stop()
    #expect(synced.status == 0, "\(synced.error)")
    let peers = hostile.map { $0.replacingOccurrences(of: "{canary}", with: canary) }
    let database = try SQLiteDatabase(url: home.appendingPathComponent(Store.databaseFileName))
    defer { database.close() }
    // Every column of the synced row is copied, so the rows keep to whatever msa's schema is;
    // only the peer, the time and the identity differ.
    let columns = try database.query("PRAGMA table_info(messages)").map { try $0.string("name") }
      .filter { $0 != "id" }
    func copy(_ overrides: [String: String], from source: String) -> String {
      let values = columns.map { overrides[$0] ?? "template.\($0)" }
      return """
        INSERT INTO messages (\(columns.joined(separator: ", ")))
        SELECT \(values.joined(separator: ", ")) FROM \(source)
        """
    }
    try database.transaction { database in
      try database.execute(
        "CREATE TEMP TABLE template AS SELECT * FROM messages ORDER BY id LIMIT 1")
      let base = "(SELECT device_at FROM template)"
      try database.execute(
        copy(
          [
            "peer_raw": "printf('+86 139%08d', \(ordinaryPeers) + 1 - n.i)",
            "peer_key": "printf('139%08d', \(ordinaryPeers) + 1 - n.i)",
            "device_at": "\(base) - 86400000 - n.i * 1000", "dedupe_key": "'bulk-' || n.i",
            "upstream_id": "NULL", "code": "NULL",
          ],
          from: """
            template, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
            WHERE i < \(ordinaryPeers)) SELECT i FROM n) AS n
            """))
      for (offset, peer) in peers.enumerated() {
        _ = try database.run(
          copy(
            [
              "peer_raw": "?1", "peer_key": "?2", "device_at": "\(base) + ?3 * 1000",
              "dedupe_key": "'hostile-' || ?3", "upstream_id": "NULL", "code": "NULL",
            ], from: "template"), [peer, PeerNumber.key(peer), offset + 1])
      }
      try database.execute(
        "DELETE FROM messages WHERE dedupe_key NOT LIKE 'bulk-%' AND dedupe_key NOT LIKE 'hostile-%'"
      )
    }
    let count = try database.queryOne("SELECT count(DISTINCT peer_key) AS n FROM messages")
    #expect(try count?.int("n") == ordinaryPeers + hostile.count)
    return Archive(home: home, canary: canary, hostile: peers)
  }

  /// What `msa messages show <Tab>` must offer: the newest peers first, at most 1,000 read
  /// from the archive; of those the ones with a control are never offered, the one beginning
  /// with `-` is held back and `--` offered in its place.
  static func expectedNewest(_ archive: Archive) -> [String] {
    let read = archive.hostile.reversed() + (1...(1_000 - archive.hostile.count)).map(ordinary)
    return read.filter { peer in
      !peer.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } && !peer.hasPrefix("-")
    } + ["--"]
  }

  /// Words typed and what Tab must offer for the last one.
  struct Completion: Sendable, CustomStringConvertible {
    /// The words as typed (quotes and all); the last is the one completed.
    let words: [String]
    /// The peers (or words) offered, in order.
    let offered: [String]
    var description: String { words.joined(separator: " ") }
  }

  /// The completions every shell must give.
  static func completions(_ archive: Archive) -> [Completion] {
    let peers = archive.hostile
    return [
      Completion(words: ["msa", "messages", "show", ""], offered: expectedNewest(archive)),
      Completion(words: ["msa", "messages", "show", "/"], offered: [peers[0]]),
      // The peer with a line feed is never offered, not even in part.
      Completion(words: ["msa", "messages", "show", "x"], offered: []),
      Completion(words: ["msa", "messages", "show", "'$"], offered: [peers[2]]),
      Completion(words: ["msa", "messages", "show", "'`"], offered: [peers[3]]),
      Completion(words: ["msa", "messages", "show", "O"], offered: [peers[4]]),
      Completion(words: ["msa", "messages", "show", "sa"], offered: [peers[5]]),
      Completion(words: ["msa", "messages", "show", "中"], offered: [peers[8]]),
      // After `--` the peer beginning with a dash is offered; before it, never.
      Completion(words: ["msa", "messages", "show", "--", "--h"], offered: [peers[7]]),
      // The window of the newest messages, newest first ...
      Completion(
        words: ["msa", "messages", "show", "139000999"],
        offered: (2...101).map { ordinary($0).replacingOccurrences(of: "+86 ", with: "") }),
      // ... and older peers by their key.
      Completion(
        words: ["msa", "messages", "show", "1390000000"],
        offered: (1...9).map { "1390000000\($0)" }),
    ]
  }

  /// The values offered (as the shell reads what it inserts), checked against the expected.
  static func check(_ completion: Completion, offered: [String], shell: String) {
    // Compared first, so a failure names a few values rather than a thousand.
    let same = offered == completion.offered
    let differs = zip(offered, completion.offered).first { $0 != $1 }
    #expect(
      same,
      "\(shell) `\(completion)`: \(offered.count) offered, expected \(completion.offered.count); first difference \(differs.map { "\($0) ≠ \($1)" } ?? "none"), first offered \(offered.prefix(3))"
    )
  }

  /// The drivers' output as answers, one per completion, each a list of fields. A field ends
  /// with NUL and an answer with a field holding only U+0001 (no candidate can hold either).
  /// Split by bytes: Foundation's string search skips U+0001 as ignorable.
  static func answers(_ text: String) -> [[String]] {
    var answers: [[String]] = []
    var fields: [String] = []
    for field in Array(text.utf8).split(separator: 0, omittingEmptySubsequences: false).dropLast() {
      if field.elementsEqual([1]) {
        answers.append(fields)
        fields = []
      } else {
        fields.append(String(decoding: field, as: UTF8.self))
      }
    }
    return answers
  }

  static func expectNothingRan(_ archive: Archive, _ shell: String) throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: archive.home.path)
    #expect(!files.contains { $0.hasPrefix("pwned") }, "\(shell) ran a peer: \(files)")
  }

  /// `text` single-quoted for a POSIX shell or zsh.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  // MARK: - bash

  @Test func bashOffersExactlyThePeersQuoted() async throws {
    let bash = try Self.shell("bash")
    let archive = try await Self.makeArchive()
    defer { try? FileManager.default.removeItem(at: archive.home) }
    let completions = Self.completions(archive)
    // For each line: the function `complete -p msa` names is called as readline calls it;
    // each reply is then put on a line as readline would (inside the quote the word opened)
    // and read back by bash as one word. Fields are separated by NUL.
    var script = """
      source <(msa completion bash) || exit 3
      spec=$(complete -p msa) || exit 4
      function=${spec#*-F }; function=${function%% *}
      tab() {
          COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
          COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
          local current="${COMP_WORDS[COMP_CWORD]}" open="" reply
          case "$current" in \\'*|\\"*) open="${current:0:1}" ;; esac
          COMPREPLY=()
          "$function" msa "$current" "${COMP_WORDS[COMP_CWORD-1]}"
          printf 'T\\0%s\\0' "${#COMPREPLY[@]}"
          for reply in "${COMPREPLY[@]}"; do
              eval "set -- $open$reply$open"
              printf 'R\\0%s\\0%s\\0%s\\0' "$reply" "$#" "$1"
          done
          printf '\\001\\0'
      }

      """
    for completion in completions {
      script += "tab " + completion.words.map(Self.quoted).joined(separator: " ") + "\n"
    }
    let ran = try Self.run(bash, ["--norc", "--noprofile", "-c", script], home: archive.home)
    #expect(!ran.timedOut, "bash did not finish")
    #expect(ran.status == 0, "\(ran.error)")
    let answers = Self.answers(ran.output)
    #expect(answers.count == completions.count, "\(ran.output.prefix(300)) \(ran.error)")
    for (completion, answer) in zip(completions, answers) {
      var fields = answer[...]
      guard fields.popFirst() == "T", let count = fields.popFirst().flatMap({ Int($0) }) else {
        Issue.record("bash `\(completion)`: \(answer.prefix(4))")
        continue
      }
      var offered: [String] = []
      while fields.count >= 4, fields.popFirst() == "R" {
        let reply = fields.popFirst() ?? ""
        let wordCount = fields.popFirst() ?? ""
        let word = fields.popFirst() ?? ""
        #expect(wordCount == "1", "bash `\(completion)`: \(reply) is \(wordCount) words")
        offered.append(word)
      }
      #expect(offered.count == count)
      Self.check(completion, offered: offered, shell: "bash")
    }
    try Self.expectNothingRan(archive, "bash")
  }

  // MARK: - zsh

  @Test func zshOffersExactlyThePeersQuoted() async throws {
    let zsh = try Self.shell("zsh")
    let archive = try await Self.makeArchive()
    defer { try? FileManager.default.removeItem(at: archive.home) }
    let completions = Self.completions(archive)
    let results = archive.home.appendingPathComponent("zsh-\(UUID().uuidString)")
    // An interactive zsh on a pseudo-terminal, with compinit and the script: each line is
    // typed, then Tab, then ^X, a widget that writes the buffer zsh edited and the matches
    // zsh's own compadd was given (recorded by a wrapper around the builtin, which still adds
    // them), NUL-separated. Listing is off so no prompt eats the keys.
    let inner = """
      PS1='> '; unsetopt autolist; unsetopt beep
      autoload -Uz compinit && compinit -u -D
      source <(msa completion zsh)
      typeset -ga recorded
      compadd() { local -a matches; builtin compadd -O matches "$@"; recorded+=("${matches[@]}"); builtin compadd "$@"; }
      dump() { print -rN -- B "$BUFFER" "${(Q)${(z)BUFFER}[-1]}" "${#recorded}" "${recorded[@]}" $'\\001' >> \(Self.quoted(results.path)); recorded=(); BUFFER=; }
      zle -N dump; bindkey '^X' dump
      """
    var driver = """
      zmodload zsh/zpty || exit 3
      zpty -b shell zsh -f -i || exit 4
      results=\(Self.quoted(results.path))
      : > $results
      drain() { local chunk; while zpty -r -t shell chunk 2>/dev/null; do :; done; }
      zpty -w shell \(Self.quoted(inner.replacingOccurrences(of: "\n", with: "; ")))
      step() {
          local before=$(tr -cd '\\001' < $results | wc -c) i
          zpty -w -n shell "$1"$'\\t\\C-x'
          for i in {1..1500}; do
              drain
              (( $(tr -cd '\\001' < $results | wc -c) > before )) && return 0
              sleep 0.02
          done
          print -r -- "timeout: $1"; exit 5
      }

      """
    for completion in completions {
      driver += "step " + Self.quoted(completion.words.joined(separator: " ")) + "\n"
    }
    driver += "zpty -d shell\n"
    let ran = try Self.run(zsh, ["-f", "-c", driver], home: archive.home, deadline: 120)
    #expect(!ran.timedOut, "zsh did not finish")
    #expect(ran.status == 0, "\(ran.output) \(ran.error)")
    let text = try String(contentsOf: results, encoding: .utf8)
    let answers = Self.answers(text)
    #expect(answers.count == completions.count, "\(text.prefix(300))")
    for (completion, answer) in zip(completions, answers) {
      var fields = answer[...]
      guard fields.popFirst() == "B", let buffer = fields.popFirst(),
        let lastWord = fields.popFirst(), let count = fields.popFirst().flatMap({ Int($0) })
      else {
        Issue.record("zsh `\(completion)`: \(answer.prefix(4))")
        continue
      }
      let matches = Array(fields.prefix(count))
      Self.check(completion, offered: matches, shell: "zsh")
      // One match: zsh inserted it, quoted, as the line's last word.
      if completion.offered.count == 1 {
        #expect(
          lastWord == completion.offered[0], "zsh `\(completion)`: the line became \(buffer)")
      }
    }
    try Self.expectNothingRan(archive, "zsh")
  }

  // MARK: - fish

  @Test func fishOffersExactlyThePeers() async throws {
    let fish = try Self.shell("fish")
    let archive = try await Self.makeArchive()
    defer { try? FileManager.default.removeItem(at: archive.home) }
    let completions = Self.completions(archive)
    // `complete -C LINE` prints what fish offers for the line's last token, one a line
    // (`value<TAB>description`); fish escapes a value itself when it inserts it.
    var script = "msa completion fish | source; or exit 3\n"
    for completion in completions {
      let line = completion.words.joined(separator: " ")
      script += "complete -C \(Self.fishQuoted(line)) | string join0; printf '\\001\\0'\n"
    }
    let ran = try Self.run(fish, ["--no-config", "-c", script], home: archive.home)
    #expect(!ran.timedOut, "fish did not finish")
    #expect(ran.status == 0, "\(ran.error)")
    let answers = Self.answers(ran.output)
    #expect(answers.count == completions.count, "\(ran.output.prefix(300)) \(ran.error)")
    for (completion, answer) in zip(completions, answers) {
      let offered = answer.map {
        String($0.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)[0])
      }
      Self.check(completion, offered: offered, shell: "fish")
    }
    try Self.expectNothingRan(archive, "fish")
  }

  /// `text` single-quoted for fish (backslash and quote escaped inside).
  static func fishQuoted(_ text: String) -> String {
    "'"
      + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
        of: "'", with: "\\'") + "'"
  }

  // MARK: - Instance names (issue 18)

  /// A home with two instances, one with a space in its name.
  static func instancesHome() async throws -> URL {
    let home = try temporaryHome()
    for (name, port) in [("Office", 3001), ("Shop router", 3002)] {
      let add = try await msa(
        ["fleet", "add", "--name", name, "--url", "http://127.0.0.1:\(port)"], home: home)
      #expect(add.status == 0, "\(add.error)")
    }
    return home
  }

  /// Loads each shell's script and completes `msa fleet test ` and `msa fle`.
  @Test(arguments: ["bash", "zsh", "fish"])
  func theScriptLoadsAndCompletesInstanceNames(_ name: String) async throws {
    let shell = try Self.shell(name)
    let home = try await Self.instancesHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let arguments: [String]
    let expected: [String]
    switch name {
    case "bash":
      arguments = [
        "--norc", "--noprofile", "-c",
        """
        source <(msa completion bash) || exit 3
        complete -p msa || exit 4
        COMP_WORDS=(msa fleet test ""); COMP_CWORD=3
        _msa
        printf '%s\\n' "${COMPREPLY[@]}"
        COMP_WORDS=(msa fle); COMP_CWORD=1
        _msa
        printf '%s\\n' "${COMPREPLY[@]}"
        """,
      ]
      expected = ["complete -F _msa msa", "Office", "Shop\\ router", "fleet"]
    case "zsh":
      // compinit registers the function (the Tab itself is driven above, on a terminal).
      arguments = [
        "-f", "-c",
        """
        autoload -Uz compinit && compinit -u -D || exit 3
        source <(msa completion zsh) || exit 4
        print -r -- "registered:${_comps[msa]}"
        """,
      ]
      expected = ["registered:_msa"]
    default:
      arguments = [
        "--no-config", "-c",
        """
        msa completion fish | source; or exit 3
        complete -C 'msa fleet test '
        complete -C 'msa fle'
        """,
      ]
      expected = ["Office\thttp://127.0.0.1:3001", "Shop router\thttp://127.0.0.1:3002", "fleet"]
    }
    let ran = try Self.run(shell, arguments, home: home)
    #expect(ran.status == 0, "\(ran.error)")
    // Each line starts with what is expected (a subcommand may carry its description).
    let lines = ran.output.split(separator: "\n").map(String.init)
    #expect(
      lines.count == expected.count && zip(lines, expected).allSatisfy { $0.hasPrefix($1) },
      "\(ran.output) \(ran.error)")
  }
}
