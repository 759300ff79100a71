import Essentials
import FeatureKit
import Foundation
import ViewKit

/// A tab of an app: one feature module with a home route.
public struct AppTab: Sendable, Equatable {
  /// The module's id.
  public let id: String
  /// The module's name in the app's language.
  public let title: String
  /// The route the tab opens.
  public let home: String

  /// A tab.
  public init(id: String, title: String, home: String) {
    self.id = id
    self.title = title
    self.home = home
  }
}

/// What an action left on its screen (a line on the console's status bar, a footer on the
/// phone) until the user navigates.
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
  /// A number unique among the app's screens, so a finished action finds its screen.
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
  /// Rows marked for a batch action (space in the console, edit mode on the phone).
  public var marked: Set<String>
  /// The filter: rows must contain it.
  public var filter: String
  /// The search: passed to a searchable route, else a filter of its rows.
  public var search: String
  /// Where a shell that scrolls by lines (the console) has scrolled to: the first body line
  /// shown. A shell that scrolls by itself ignores it.
  public var scroll: Int
  /// Whether the view keeps its end in sight (a conversation shows its newest message).
  public var followsEnd: Bool
  /// View options turned on by the route's toggle actions.
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

  /// A field.
  public init(label: String, value: String, isSecret: Bool, isOptional: Bool) {
    self.label = label
    self.value = value
    self.isSecret = isSecret
    self.isOptional = isOptional
  }
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

  /// A form.
  public init(
    key: Character, title: String, fields: [FormFieldState], focus: Int, problem: String?
  ) {
    self.key = key
    self.title = title
    self.fields = fields
    self.focus = focus
    self.problem = problem
  }
}

/// An action waiting for yes or no.
public struct PendingConfirmation: Sendable, Equatable {
  /// The question, naming the targets and their count.
  public var question: String
  /// The batch that runs on yes.
  public var batch: Batch
  /// What runs on yes.
  public var runs: [AppEffect]

  /// A confirmation.
  public init(question: String, batch: Batch, runs: [AppEffect]) {
    self.question = question
    self.batch = batch
    self.runs = runs
  }
}

/// What the app waits for from the user besides browsing: an action's form to fill in, or a
/// confirmation to answer.
public enum AppActivity: Sendable, Equatable {
  case form(FormState)
  case confirming(PendingConfirmation)
}

/// The runs one action started, summed up on its screen when the last one ends.
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

  /// A batch.
  public init(
    id: Int, screenID: Int, title: String, outcome: String?, total: Int, finished: Int,
    failures: [String], names: [String: String], form: FormState?
  ) {
    self.id = id
    self.screenID = screenID
    self.title = title
    self.outcome = outcome
    self.total = total
    self.finished = finished
    self.failures = failures
    self.names = names
    self.form = form
  }
}

/// The whole state of an app over its routes; ``AppUpdate`` is the only thing that changes it.
///
/// It holds no terminal or UI type: a shell (the terminal console, the iPhone app) feeds it
/// messages and draws it.
public struct AppState: Sendable, Equatable {
  /// The tabs, in module order.
  public var tabs: [AppTab]
  /// The tab shown.
  public var activeTab: Int
  /// One navigation stack per tab; never empty.
  public var stacks: [[ScreenState]]
  /// The form or confirmation waiting for the user, if any.
  public var activity: AppActivity?
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

  /// The first state: every tab at its home route, the first tab shown.
  public init(tabs: [AppTab]) {
    self.tabs = tabs
    activeTab = 0
    stacks = tabs.enumerated().map { [ScreenState(path: $0.element.home, id: $0.offset + 1)] }
    activity = nil
    pending = []
    running = 0
    batches = [:]
    lastRefresh = nil
    shouldQuit = false
    nextID = tabs.count + 1
  }

  /// Tabs from a registry: each module with a home route, in the registry's order.
  public static func tabs(of registry: FeatureRegistry, language: AppLanguage) -> [AppTab] {
    registry.modules.compactMap { module in
      module.home.map { AppTab(id: module.id, title: module.name.resolve(language), home: $0) }
    }
  }

  /// The screen shown.
  public var screen: ScreenState {
    get { stacks[activeTab][stacks[activeTab].count - 1] }
    set { stacks[activeTab][stacks[activeTab].count - 1] = newValue }
  }

  /// A fresh number.
  public mutating func takeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }
}

/// What the runtime does on the update's behalf.
public enum AppEffect: Sendable, Equatable {
  /// Load (or reload) the route at `path`, passing `search` to searchable routes and the
  /// screen's view options.
  case load(path: String, search: String?, flags: Set<String> = [])
  /// Run a command line for `batch`; `affected` rows show as pending until it finishes.
  case run(arguments: [String], affected: [String], batch: Int)
  /// Leave the app (the console quits; the phone has no such effect).
  case quit
}

/// How a command run by an action ended.
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

  private static func first(in view: ViewNode, rowLevel: Bool) -> String? {
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

/// Everything a shell can tell the core: what the user did, and what finished.
///
/// The console turns key presses into calls of ``AppUpdate``'s steps with its scrolling in
/// between; the phone sends these messages as they are.
public enum AppMessage: Sendable, Equatable {
  /// Switch to the tab at this index.
  case selectTab(Int)
  /// Put the cursor on a row (nil: none).
  case select(row: String?)
  /// Open a row's link.
  case open(row: String)
  /// Open a route on top of the current screen.
  case push(path: String)
  /// Back: clear the search and filter first, else close the screen.
  case back
  /// Close the screen shown, whatever its search (a phone's back button).
  case close
  /// Search for this text (empty ends the search).
  case search(String)
  /// Keep only rows containing this text.
  case filter(String)
  /// Mark or unmark a row for a batch action.
  case toggleMark(row: String)
  /// Reload, and run the route's own refresh action if it has one.
  case refresh
  /// The route's action with this key, on the marked rows or the cursor row.
  case perform(action: Character)
  /// Run the open form with these values (one per field).
  case submit(values: [String])
  /// Close the open form or confirmation without running it.
  case cancel
  /// Answer the open confirmation.
  case answer(yes: Bool)
  /// A route finished loading.
  case loaded(path: String, view: ViewNode, at: Date)
  /// One run of a batch finished.
  case finished(batch: Int, affected: [String], outcome: ActionOutcome)
}
