import Essentials
import FeatureKit
import Foundation
import ViewKit

/// A tab of the console: one feature module with a home route.
public struct ConsoleTab: Sendable, Equatable {
  /// The module's id.
  public let id: String
  /// The module's name in the console's language.
  public let title: String
  /// The route the tab opens.
  public let home: String
}

/// What an action left on its screen: a line on the status bar until the user navigates.
public struct ScreenResult: Sendable, Equatable {
  /// The text, e.g. "3 tested · 1 failed (Wuhan Hanging: Offline · timed out)".
  public var text: String
  /// Whether something failed (drawn in the danger colour).
  public var isFailure: Bool

  /// A result.
  public init(_ text: String, isFailure: Bool = false) {
    self.text = text
    self.isFailure = isFailure
  }
}

/// One open screen: a route path and what is known of it.
public struct ScreenState: Sendable, Equatable {
  /// A number unique among the console's screens, so a finished action finds its screen.
  public var id: Int
  /// The route path, e.g. `fleet/3f2a9c1d0b7e`.
  public var path: String
  /// The last loaded view; nil until the first load finishes.
  public var view: ViewNode?
  /// Whether a load is under way.
  public var isLoading: Bool
  /// When the view was loaded.
  public var loadedAt: Date?
  /// The id of the row under the cursor (kept by id, so refreshes keep the place).
  public var cursorID: String?
  /// Rows marked with space for a batch action.
  public var marked: Set<String>
  /// The `f` filter: rows must contain it.
  public var filter: String
  /// The `/` search.
  public var search: String
  /// The first body line shown.
  public var scroll: Int
  /// Whether the view keeps its end in sight (a conversation shows its newest message).
  public var followsEnd: Bool
  /// View options turned on by the route's toggle keys.
  public var flags: Set<String>
  /// What the latest action on this screen left.
  public var result: ScreenResult?
  /// Whether the route's own form was opened once already.
  public var formShown: Bool

  /// A screen about to load.
  public init(path: String, id: Int = 0) {
    self.id = id
    self.path = path
    view = nil
    isLoading = true
    loadedAt = nil
    cursorID = nil
    marked = []
    filter = ""
    search = ""
    scroll = 0
    followsEnd = false
    flags = []
    result = nil
    formShown = false
  }
}

/// What a prompt at the bottom line is collecting.
public enum PromptPurpose: Sendable, Equatable {
  case search
  case filter
}

/// A line of text being typed.
public struct Prompt: Sendable, Equatable {
  /// What it is for.
  public var purpose: PromptPurpose
  /// The label shown before the text.
  public var label: String
  /// What has been typed.
  public var text: String
}

/// One field of a form.
public struct FormFieldState: Sendable, Equatable {
  /// The field's label.
  public var label: String
  /// What it holds.
  public var value: String
  /// Shown as dots.
  public var isSecret: Bool
  /// May stay empty.
  public var isOptional: Bool
}

/// An action's form, filled in before it runs: every field visible and editable.
public struct FormState: Sendable, Equatable {
  /// The key of the action it belongs to.
  public var key: Character
  /// The action's title.
  public var title: String
  /// Its fields, in order.
  public var fields: [FormFieldState]
  /// The field being edited.
  public var focus: Int
  /// What is wrong, naming the field.
  public var problem: String?
}

/// An action waiting for yes or no.
public struct PendingConfirmation: Sendable, Equatable {
  /// The question, naming the targets and their count.
  public var question: String
  /// The question with the answers to type, as shown.
  public var prompt: String
  /// The batch that runs on yes.
  public var batch: Batch
  /// What runs on yes.
  public var runs: [ConsoleEffect]
}

/// What the console is doing with key presses.
public enum ConsoleMode: Sendable, Equatable {
  case browsing
  case prompting(Prompt)
  case form(FormState)
  case confirming(PendingConfirmation)
  /// The key help, scrolled to the given line.
  case help(scroll: Int)
}

/// The runs one key press started, summed up on its screen when the last one ends.
public struct Batch: Sendable, Equatable {
  /// Its number.
  public var id: Int
  /// The screen it came from.
  public var screenID: Int
  /// The action's title.
  public var title: String
  /// How success reads, with `{count}` (nil: "Done: <title>").
  public var outcome: String?
  /// Runs started.
  public var total: Int
  /// Runs ended.
  public var finished: Int
  /// The failed targets with what went wrong, in the order they ended.
  public var failures: [String]
  /// Target names by row id.
  public var names: [String: String]
  /// The form to open again when the run fails (the values kept).
  public var form: FormState?
}

/// The whole state of the console; ``ConsoleUpdate`` is the only thing that changes it.
///
/// It holds no terminal type: a shell (the terminal runtime, or any other) feeds it
/// messages and draws it.
public struct ConsoleState: Sendable, Equatable {
  /// The tabs, in module order.
  public var tabs: [ConsoleTab]
  /// The tab shown.
  public var activeTab: Int
  /// One navigation stack per tab; never empty.
  public var stacks: [[ScreenState]]
  /// How keys are read.
  public var mode: ConsoleMode
  /// Terminal columns.
  public var width: Int
  /// Terminal rows.
  public var height: Int
  /// Row ids with an action still running.
  public var pending: Set<String>
  /// Actions still running.
  public var running: Int
  /// Batches still running, by id.
  public var batches: [Int: Batch]
  /// When any screen last finished loading.
  public var lastRefresh: Date?
  /// Set when the user quits.
  public var shouldQuit: Bool
  /// The next free screen or batch number.
  public var nextID: Int

  /// The console's first state: every tab at its home route, the first tab shown.
  public init(tabs: [ConsoleTab], width: Int, height: Int) {
    self.tabs = tabs
    activeTab = 0
    stacks = tabs.enumerated().map { [ScreenState(path: $0.element.home, id: $0.offset + 1)] }
    mode = .browsing
    self.width = width
    self.height = height
    pending = []
    running = 0
    batches = [:]
    lastRefresh = nil
    shouldQuit = false
    nextID = tabs.count + 1
  }

  /// Tabs from a registry: each module with a home route, in the registry's order.
  public static func tabs(of registry: FeatureRegistry, language: AppLanguage) -> [ConsoleTab] {
    registry.modules.compactMap { module in
      module.home.map { ConsoleTab(id: module.id, title: module.name.resolve(language), home: $0) }
    }
  }

  /// The screen shown.
  public var screen: ScreenState {
    get { stacks[activeTab][stacks[activeTab].count - 1] }
    set { stacks[activeTab][stacks[activeTab].count - 1] = newValue }
  }

  /// Rows of the body: the height minus the tab bar, the title, the status and key lines,
  /// and the lines a long result takes above the status line.
  public var bodyHeight: Int {
    // The question's lines above the key line (its last line is the key line).
    let question = max(0, ConsoleRenderer.questionLines(self).count - 1)
    return max(
      1, height - 4 - ConsoleRenderer.resultLines(screen.result, width: width).count - question)
  }

  /// A fresh number.
  mutating func takeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }
}

/// What the runtime does on the update's behalf.
public enum ConsoleEffect: Sendable, Equatable {
  /// Load (or reload) the route at `path`, passing `search` to searchable routes and the
  /// screen's view options.
  case load(path: String, search: String?, flags: Set<String> = [])
  /// Run a command line for `batch`; `affected` rows show as pending until it finishes.
  case run(arguments: [String], affected: [String], batch: Int)
  /// Leave the console.
  case quit
}

/// How a command run by the console ended.
public struct ActionOutcome: Sendable, Equatable {
  /// Whether it succeeded.
  public var succeeded: Bool
  /// Its error message, if any.
  public var message: String?

  /// An outcome.
  public init(succeeded: Bool, message: String? = nil) {
    self.succeeded = succeeded
    self.message = message
  }

  /// What a command that ended in failure without an error says went wrong, read from the
  /// view it returned: an error state, else the first danger or warning cell or badge of a
  /// row (a device's "Offline · timed out"), else a danger or warning banner or value. An
  /// advisory banner above the rows ("reached over plain HTTP") is not the reason.
  public static func failureText(in view: ViewNode) -> String? {
    first(in: view, rowLevel: true) ?? first(in: view, rowLevel: false)
  }

  static func first(in view: ViewNode, rowLevel: Bool) -> String? {
    let alarming: (Tone?) -> Bool = { $0 == .danger || $0 == .warning }
    switch view {
    case .error(let error): return error.message
    case .table(let table) where rowLevel:
      return table.rows.lazy.flatMap(\.cells).first { alarming($0.tone) }?.text
    case .list(let list) where rowLevel:
      return list.items.lazy.flatMap(\.badges).first { alarming($0.tone) }?.text
    case .banner(let banner) where !rowLevel:
      return alarming(banner.tone) ? banner.text : nil
    case .badge(let badge) where !rowLevel:
      return alarming(badge.tone) ? badge.text : nil
    case .keyValue(let row) where !rowLevel:
      return alarming(row.tone) ? "\(row.key): \(row.value)" : nil
    default:
      return view.children.lazy.compactMap { first(in: $0, rowLevel: rowLevel) }.first
    }
  }
}

/// Everything that can happen to the console.
public enum ConsoleMessage: Sendable, Equatable {
  case key(Key)
  case resized(width: Int, height: Int)
  /// A route finished loading.
  case loaded(path: String, view: ViewNode, at: Date)
  /// One run of a batch finished.
  case finished(batch: Int, affected: [String], outcome: ActionOutcome)
  /// The `--refresh` timer fired.
  case tick
}
