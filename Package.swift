// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

// The `Macros` trait (off by default) brings in `@Prisms` and `@Lenses` (product `SwiftRexMacros`),
// built with swift-syntax. Without it swift-syntax is neither resolved nor built: a dependent with
// default settings resolves SwiftRex alone, offline. Opting in: `traits: ["Macros"]` on the
// dependency, or `--traits Macros` here (Scripts/test).
let macros = TargetDependencyCondition.when(traits: ["Macros"])

let package = Package(
    name: "SwiftRex",
    products: [
        .library(name: "SwiftRex", targets: ["SwiftRex"]),
        .library(name: "SwiftRexMacros", targets: ["SwiftRexMacros"]),
        .library(name: "SwiftRexTesting", targets: ["SwiftRexTesting"]),
        .library(name: "SwiftRexTestSupport", targets: ["SwiftRexTestSupport"]),
    ],
    traits: [
        .trait(name: "Macros", description: "The @Prisms and @Lenses macros (product SwiftRexMacros), built with swift-syntax."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "603.0.0"..<"604.0.0")
    ],
    targets: [
        .target(name: "SwiftRex"),
        .target(
            name: "SwiftRexTesting",
            dependencies: ["SwiftRex"]
        ),
        .target(
            name: "SwiftRexTestSupport",
            dependencies: ["SwiftRex"]
        ),
        // The compiler plugin implementing the macros (an empty executable without the trait).
        .macro(
            name: "SwiftRexMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax", condition: macros),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax", condition: macros),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax", condition: macros),
                .product(name: "SwiftDiagnostics", package: "swift-syntax", condition: macros),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax", condition: macros),
            ]
        ),
        // The macro declarations; re-exports SwiftRex.
        .target(
            name: "SwiftRexMacros",
            dependencies: ["SwiftRex", .target(name: "SwiftRexMacrosPlugin", condition: macros)]
        ),
        .testTarget(
            name: "SwiftRexTests",
            dependencies: ["SwiftRex", "SwiftRexTesting", "SwiftRexTestSupport"],
            exclude: ["BadInput/README.md"]
        ),
        // Expansion snapshots and misuse diagnostics of the macros.
        .testTarget(
            name: "SwiftRexMacrosTests",
            dependencies: [
                .target(name: "SwiftRexMacrosPlugin", condition: macros),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax", condition: macros),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax", condition: macros),
            ]
        ),
        // Every code example of SwiftRex's documentation pages (Behavior, Reducer, Middleware, Lifting
        // Features, Store), as written, with its stated outcome. The type-checker
        // warns (an error under -warnings-as-errors) on any expression that takes over 200 ms.
        .testTarget(
            name: "SeedExamples",
            dependencies: ["SwiftRex", "SwiftRexMacros", "SwiftRexTesting", "SwiftRexTestSupport"],
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=200"])]
        ),
        // Every Swift code block of the DocC articles (Sources/*/Documentation.docc), as written,
        // with its stated outcome; a test fails when a block is not found here verbatim.
        .testTarget(
            name: "ArticleExamples",
            dependencies: ["SwiftRex", "SwiftRexMacros", "SwiftRexTesting"],
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=200"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
