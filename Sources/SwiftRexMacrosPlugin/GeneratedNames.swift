#if Macros
import SwiftSyntax

/// A member a type declares under a name its macro generates there: a nested type or property
/// named like a generated type (`AllPrisms`), or a static property named like a generated one
/// (`prism`). Both would be redeclared by the expansion.
struct DeclaredNameClash {
    /// The declared name's token (the diagnostic points at it).
    let token: TokenSyntax
    /// The name without backticks.
    let name: String
    /// Whether the member is a property (else a nested type).
    let isProperty: Bool

    /// The clashes among `members`, given the names of the types and static properties generated.
    static func find(in members: MemberBlockItemListSyntax, types: Set<String>, staticProperties: Set<String>) -> [DeclaredNameClash] {
        members.flatMap { member -> [DeclaredNameClash] in
            let decl = member.decl
            if let variable = decl.as(VariableDeclSyntax.self) {
                let isStatic = variable.modifiers.contains { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }
                return variable.bindings.compactMap { binding in
                    guard let token = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else { return nil }
                    let name = Spelling.name(of: token)
                    let clashes = types.contains(name) || (isStatic && staticProperties.contains(name))
                    return clashes ? DeclaredNameClash(token: token, name: name, isProperty: true) : nil
                }
            }
            let typeName =
                decl.as(StructDeclSyntax.self)?.name ?? decl.as(EnumDeclSyntax.self)?.name ?? decl.as(ClassDeclSyntax.self)?.name
                ?? decl.as(ActorDeclSyntax.self)?.name ?? decl.as(TypeAliasDeclSyntax.self)?.name
            guard let token = typeName, types.contains(Spelling.name(of: token)) else { return [] }
            return [DeclaredNameClash(token: token, name: Spelling.name(of: token), isProperty: false)]
        }
    }
}
#endif
