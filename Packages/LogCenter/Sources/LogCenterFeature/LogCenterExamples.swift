/// Example command lines of the log center's commands, by command path; help and the manual
/// end each command with them, and the app's tests check that each one parses.
enum LogCenterExamples {
  static let all: [String: [String]] = [
    "logs": [
      "msa logs", "msa logs --kind connection --instance Office",
      "msa logs --level error --since 2026-12-01 --json",
    ],
    "logs show": ["msa logs show 118", "msa logs show 118 --json"],
    "logs trim": ["msa logs trim --older-than 30", "msa logs trim --keep 10000 --kind runtime"],
    "logs clear": ["msa logs clear --yes", "msa logs clear --kind runtime --yes"],
    "logs export": [
      "msa logs export --output logs.jsonl",
      "msa logs export --format csv --output logs.csv --force",
    ],
    "data": ["msa data info", "msa data check", "msa data backup ~/msa-backup.sqlite"],
    "data info": ["msa data info", "msa data info --json"],
    "data check": ["msa data check", "msa data check --json"],
    "data compact": ["msa data compact", "msa data compact --json"],
    "data backup": [
      "msa data backup ~/msa-backup.sqlite", "msa data backup ~/msa-backup.sqlite --force",
    ],
    "data restore": [
      "msa data restore ~/msa-backup.sqlite", "msa data restore ~/msa-backup.sqlite --json",
    ],
    "data export-registry": [
      "msa data export-registry fleet.json", "msa data export-registry fleet.json --json",
    ],
    "data import-registry": [
      "msa data import-registry fleet.json", "msa data import-registry fleet.json --json",
    ],
  ]
}
