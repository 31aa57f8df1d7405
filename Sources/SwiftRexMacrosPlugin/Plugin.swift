#if Macros
import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin serving `@Prisms` and `@Lenses`.
@main
struct SwiftRexMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [PrismsMacro.self, LensesMacro.self]
}
#else
/// Without the `Macros` trait the plugin is an empty executable (nothing declares the macros).
@main
enum SwiftRexMacrosPlugin {
    static func main() {}
}
#endif
