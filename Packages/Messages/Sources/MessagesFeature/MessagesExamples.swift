/// Example command lines of the Messages commands, by command path; help and the manual end
/// each command with them, and the app's tests check that each one parses.
enum MessagesExamples {
  static let all: [String: [String]] = [
    "messages": [
      "msa messages sync", "msa messages list --search 验证码",
      "msa messages send --from Dongle --to 10086 --text CXYE",
    ],
    "messages sync": [
      "msa messages sync", "msa messages sync Office Dongle", "msa messages sync --flush --json",
    ],
    "messages list": [
      "msa messages list --search 验证码", "msa messages list --instance Office --since 2026-12-01",
      "msa messages list --has-code --show-bodies --json",
    ],
    "messages conversations": [
      "msa messages conversations", "msa messages conversations --limit 20 --json",
    ],
    "messages show": ["msa messages show 10086", "msa messages show +8613800138000 --limit 50"],
    "messages send": [
      "msa messages send --from Dongle --to 10086 --text CXYE",
      "echo 'On my way' | msa messages send --from Office --to 13800138000 --text-stdin",
      "msa messages send --from Dongle --to 10086 --text YE --expires-in 2h",
    ],
    "messages delete": [
      "msa messages delete 1042 1043", "msa messages delete --peer 10086 --scope local --yes",
      "msa messages delete --instance Office --all --yes",
    ],
    "messages export": [
      "msa messages export --format csv --output sms.csv",
      "msa messages export --format jsonl --instance Office -o office.jsonl",
      "msa messages export --format csv --include-bodies --output full.csv",
    ],
    "messages stats": ["msa messages stats", "msa messages stats --json"],
    "messages watch": [
      "msa messages watch", "msa messages watch --instance Office --interval 10s",
      "msa messages watch --json | my-forwarder",
    ],
    "code": [
      "msa code", "msa code --wait 2m",
      "msa code --from Google --instance Office --since 1h",
    ],
    "outbox": ["msa outbox", "msa outbox flush", "msa outbox check"],
    "outbox list": ["msa outbox list", "msa outbox list --json"],
    "outbox flush": ["msa outbox flush", "msa outbox flush --json"],
    "outbox check": ["msa outbox check", "msa outbox check 12 --json"],
    "outbox retry": [
      "msa outbox retry 12", "msa outbox retry 12 --send-again --yes", "msa outbox retry 12 --json",
    ],
    "outbox cancel": ["msa outbox cancel 12", "msa outbox cancel 12 --json"],
  ]
}
