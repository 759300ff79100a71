import Foundation
import Testing
import ViewKit

/// `msa demo` with its output piped: the real executable starts the embedded fleet, registers,
/// tests and syncs it, prints the text tour (workbench, message archive, one device section)
/// at the piped width of 80 columns, and exits 0 without a terminal.
@Suite struct DemoTourTests {
  /// Runs the real `msa demo` with stdout and stderr piped.
  static func tour(language: String) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = try ArchiveKillTests.executable()
    process.arguments = ["demo"]
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-demo-home-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    process.environment = [
      "LANG": language, "NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": home.path,
    ]
    let output = Pipe()
    let errorFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-demo-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: text, as: UTF8.self),
      (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    )
  }

  @Test func thePipedTourShowsEachStopWholeAt80Columns() throws {
    let run = try Self.tour(language: "en_US.UTF-8")
    #expect(run.status == 0, "\(run.error)")
    for stop in [
      "The fleet workbench\n$ msa fleet list\n",
      "The message archive (bodies masked)\n$ msa messages list --limit 8\n",
      "One device section\n$ msa device 'Beijing CPE' sim\n",
    ] {
      #expect(run.output.contains(stop), "missing \(stop)")
    }
    #expect(run.output.hasSuffix("Run 'msa demo' in a terminal for the full-screen console.\n"))
    // Every device, with its status and the reason whole.
    for name in [
      "Beijing CPE", "Shanghai Dongle", "Guangzhou Router", "Hangzhou No Modem",
      "Chengdu Legacy", "Wuhan Hanging",
    ] {
      #expect(run.output.contains(name), "\(name) missing")
    }
    #expect(run.output.contains("Offline · timed out"))
    #expect(run.output.contains("Degraded · no modem"))
    // Bodies masked in the archive stop; nothing left unfilled; nothing wider than 80.
    #expect(run.output.contains("•"))
    #expect(!run.output.contains("{"), "\(run.output)")
    let wide = run.output.split(separator: "\n").filter { DisplayWidth.of(String($0)) > 80 }
    #expect(wide.isEmpty, "\(wide)")
    // The progress lines go to stderr, in words.
    #expect(run.error.contains("Starting 6 simulated devices on 127.0.0.1…"))
    #expect(!run.output.contains("Starting 6 simulated"))
  }

  @Test func thePipedTourSpeaksChinese() throws {
    let run = try Self.tour(language: "zh_CN.UTF-8")
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.contains("节点工作台\n$ msa fleet list\n"))
    #expect(run.output.contains("短信归档（正文已遮盖）\n$ msa messages list --limit 8\n"))
    #expect(run.output.contains("离线 · 超时"), "\(run.output)")
    #expect(run.output.contains("无调制解调器"))
    #expect(run.output.hasSuffix("导览结束。在终端中运行“msa demo”即可打开全屏控制台。\n"))
    #expect(run.error.contains("正在 127.0.0.1 上启动 6 台模拟设备…"))
    let wide = run.output.split(separator: "\n").filter { DisplayWidth.of(String($0)) > 80 }
    #expect(wide.isEmpty, "\(wide)")
  }
}
