/// Example command lines of the Fleet commands, by command path; help and the manual end each
/// command with them, and the app's tests check that each one parses.
enum FleetExamples {
  static let all: [String: [String]] = [
    "fleet": [
      "msa fleet", "msa fleet --json", "msa fleet add --name Office --url http://192.168.8.1:3000",
    ],
    "fleet list": [
      "msa fleet list --status offline", "msa fleet list --group Shop --tag 5g",
      "msa fleet list --search dongle --json",
    ],
    "fleet add": [
      "msa fleet add --name \"Shop router\" --url http://192.168.8.1:3000 --tag shop",
      "printf '%s\\n' \"$PASSWORD\" | msa fleet add --name Dongle --url http://10.0.0.7:3000 --password-stdin",
      "msa fleet add --name Lab --url https://lab.example:3000 --group Lab",
    ],
    "fleet edit": [
      "msa fleet edit Office --name \"Office CPE\"", "msa fleet edit Office --tag 5g --untag 4g",
      "msa fleet edit 3f2a --url http://192.168.8.2:3000 --no-group",
    ],
    "fleet remove": ["msa fleet remove Office", "msa fleet remove Office Dongle --yes"],
    "fleet test": [
      "msa fleet test --all", "msa fleet test Office Dongle --timeout 3",
      "msa fleet test --all --json",
    ],
    "fleet show": ["msa fleet show Office", "msa fleet show 3f2a --json"],
    "fleet login": [
      "printf '%s\\n' \"$PASSWORD\" | msa fleet login Office --password-stdin",
      "msa fleet login Office",
    ],
    "fleet logout": ["msa fleet logout Office", "msa fleet logout 3f2a --json"],
    "groups": ["msa groups", "msa groups add Shop", "msa groups rename Shop Stores"],
    "groups list": ["msa groups list", "msa groups list --json"],
    "groups add": ["msa groups add Shop", "msa groups add \"Head office\""],
    "groups rename": ["msa groups rename Shop Stores", "msa groups rename \"Head office\" HQ"],
    "groups remove": ["msa groups remove Shop", "msa groups remove Stores --json"],
    "tags": ["msa tags", "msa tags --json"],
  ]
}
