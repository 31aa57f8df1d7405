#if Macros
import SwiftSyntax

/// How generated code spells the names it takes from a declaration, so that any name Swift
/// accepts there (a keyword in backticks, a raw identifier such as `` `with space` ``) stays valid.
enum Spelling {
    /// The name without backticks: `default` for `` `default` ``.
    static func name(of token: TokenSyntax) -> String {
        token.identifier?.name ?? token.text
    }

    /// The name as written (backticks kept): valid after `var` and after a `.`.
    static func spelled(_ token: TokenSyntax) -> String {
        token.text
    }

    /// An argument or tuple label: bare (`let:` is valid there, `` `let`: `` a warning), except
    /// `inout`, which Swift reads as the specifier unless it is in backticks.
    static func label(_ token: TokenSyntax) -> String {
        let bare = name(of: token)
        return bare == "inout" ? "`inout`" : bare
    }

    /// `\Root.member`. Swift reads `Root.Type` and `Root.Protocol` as metatypes even in backticks,
    /// so those two go through `Root.self`, which names the same key path.
    static func keyPath(root: String, member: String, name: String) -> String {
        ["Type", "Protocol"].contains(name) ? "\\\(root).self.\(member)" : "\\\(root).\(member)"
    }

    /// `name` as a type name: in backticks unless it is a plain identifier (letters, digits and
    /// underscores, not starting with a digit), as a raw identifier's derived name may not be.
    static func typeName(_ name: String) -> String {
        guard let first = name.first, first.isLetter || first == "_" else { return "`\(name)`" }
        return name.allSatisfy { $0.isLetter || ("0"..."9").contains($0) || $0 == "_" } ? name : "`\(name)`"
    }
}
#endif
