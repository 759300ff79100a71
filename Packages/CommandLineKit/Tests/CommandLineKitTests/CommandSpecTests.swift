import CommandLineKit
import Essentials
import Testing

@Suite struct CommandSpecTests {
  @Test func sampleTreeIsSound() {
    #expect(SampleTree.root.problems(globalOptions: SampleTree.globalOptions) == [])
  }

  @Test func findsCommandsByNameOrAlias() {
    #expect(SampleTree.root.command(at: ["fleet", "rm"])?.name == "remove")
    #expect(SampleTree.root.command(at: ["fleet", "nope"]) == nil)
    #expect(SampleTree.root.canonicalPath(["fleet", "ls", "x"]) == ["fleet", "list"])
  }

  @Test func reportsEveryDeclarationDefect() {
    let text = SampleTree.text("root")
    let broken = CommandSpec(
      "tool", abstract: text,
      subcommands: [
        CommandSpec("a", aliases: ["b"], abstract: text),
        CommandSpec(
          "b", abstract: text,
          arguments: [
            ArgumentSpec("MANY", help: text, repeating: true), ArgumentSpec("LAST", help: text),
          ],
          options: [
            .flag("json", short: "j", help: text), .flag("--x", help: text),
            .option("f", valueName: "F", help: text, default: "z", allowed: ["x", "y"]),
          ]),
        CommandSpec(
          "c", abstract: text, arguments: [ArgumentSpec("X", help: text)],
          subcommands: [CommandSpec("d", abstract: text)], defaultSubcommand: "e"),
      ])
    let problems = broken.problems(globalOptions: [.flag("json", help: text)])
    #expect(
      problems == [
        "tool: subcommand name 'b' is used twice",
        "tool b: repeating argument <many> is not the last one",
        "tool b: option '--json' is declared twice",
        "tool b: option name '--x' must be a bare word",
        "tool b: default 'z' of '--f' is not allowed",
        "tool c: default subcommand 'e' does not exist",
        "tool c: has both subcommands and positional arguments",
      ])
  }
}
