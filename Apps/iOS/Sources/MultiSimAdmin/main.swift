// The app's entry point. On iOS the SwiftUI app runs; anywhere else (a Linux or macOS build of
// this package) there is nothing to run, and it says so.
#if canImport(SwiftUI) && os(iOS)
  PhoneApp.main()
#else
  print("MultiSimAdmin is an iPhone app: build it with scripts/build-ios-ipa.sh on a Mac.")
#endif
