import Foundation
import MSAApp

// The thin executable: compose the app from the compiled-in features and run the command line.
let status = await MSAMain.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
