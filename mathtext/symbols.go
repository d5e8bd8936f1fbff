package mathtext

// symbols maps a command without arguments to what it reads as.
var symbols = map[string]string{
	// Greek
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε",
	"zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
	"lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "omicron": "ο", "pi": "π", "varpi": "ϖ",
	"rho": "ρ", "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ",
	"phi": "ϕ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
	"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
	"Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
	"varGamma": "Γ", "varDelta": "Δ", "varTheta": "Θ", "varLambda": "Λ", "varPi": "Π",
	"varSigma": "Σ", "varPhi": "Φ", "varPsi": "Ψ", "varOmega": "Ω",
	// Hebrew and letter-like
	"aleph": "ℵ", "beth": "ℶ", "ell": "ℓ", "hbar": "ℏ", "wp": "℘", "Re": "ℜ", "Im": "ℑ",
	"imath": "ı", "jmath": "ȷ", "partial": "∂", "nabla": "∇", "infty": "∞", "prime": "′",
	"emptyset": "∅", "varnothing": "∅", "top": "⊤", "bot": "⊥", "angle": "∠", "degree": "°",
	"triangle": "△", "measuredangle": "∡", "sphericalangle": "∢",
	// Binary operators
	"pm": "±", "mp": "∓", "times": "×", "div": "÷", "cdot": "·", "ast": "∗", "star": "⋆",
	"circ": "∘", "bullet": "•", "oplus": "⊕", "ominus": "⊖", "otimes": "⊗", "oslash": "⊘",
	"odot": "⊙", "cap": "∩", "cup": "∪", "sqcap": "⊓", "sqcup": "⊔", "uplus": "⊎",
	"wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨", "setminus": "∖", "backslash": "∖",
	"smallsetminus": "∖", "wr": "≀", "dagger": "†", "ddagger": "‡", "amalg": "⨿",
	"triangleleft": "◁", "triangleright": "▷", "lhd": "◁", "rhd": "▷", "unlhd": "⊴", "unrhd": "⊵",
	"bigtriangleup": "△", "bigtriangledown": "▽", "diamond": "⋄",
	// Relations
	"leq": "≤", "le": "≤", "leqslant": "≤", "geq": "≥", "ge": "≥", "geqslant": "≥",
	"neq": "≠", "ne": "≠", "equiv": "≡", "approx": "≈", "cong": "≅", "sim": "∼", "simeq": "≃",
	"propto": "∝", "ll": "≪", "gg": "≫", "prec": "≺", "succ": "≻", "preceq": "⪯", "succeq": "⪰",
	"in": "∈", "ni": "∋", "notin": "∉", "subset": "⊂", "supset": "⊃", "subseteq": "⊆",
	"supseteq": "⊇", "subsetneq": "⊊", "supsetneq": "⊋", "nsubseteq": "⊈", "nsupseteq": "⊉",
	"sqsubseteq": "⊑", "sqsupseteq": "⊒", "mid": "∣", "nmid": "∤", "parallel": "∥",
	"nparallel": "∦", "perp": "⊥", "vdash": "⊢", "dashv": "⊣", "models": "⊨", "asymp": "≍",
	"doteq": "≐", "trianglelefteq": "⊴", "trianglerighteq": "⊵", "lesssim": "≲", "gtrsim": "≳",
	"nless": "≮", "ngtr": "≯", "nleq": "≰", "ngeq": "≱", "lneq": "⪇", "gneq": "⪈", "colon": ":",
	// Arrows
	"to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔",
	"Rightarrow": "⇒", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "implies": "⟹", "impliedby": "⟸",
	"iff": "⟺", "longrightarrow": "⟶", "longleftarrow": "⟵", "longleftrightarrow": "⟷",
	"Longrightarrow": "⟹", "Longleftarrow": "⟸", "Longleftrightarrow": "⟺", "mapsto": "↦",
	"longmapsto": "⟼", "hookrightarrow": "↪", "hookleftarrow": "↩", "uparrow": "↑",
	"downarrow": "↓", "updownarrow": "↕", "Uparrow": "⇑", "Downarrow": "⇓", "nearrow": "↗",
	"searrow": "↘", "swarrow": "↙", "nwarrow": "↖", "rightharpoonup": "⇀", "twoheadrightarrow": "↠",
	"rightrightarrows": "⇉", "leadsto": "⇝", "nrightarrow": "↛", "nRightarrow": "⇏",
	// Logic and sets
	"forall": "∀", "exists": "∃", "nexists": "∄", "neg": "¬", "lnot": "¬", "therefore": "∴",
	"because": "∵", "Box": "□", "square": "□", "blacksquare": "■", "qed": "∎", "QED": "∎",
	// Big operators
	"sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬", "iiint": "∭", "oint": "∮",
	"bigcup": "⋃", "bigcap": "⋂", "bigoplus": "⨁", "bigotimes": "⨂", "bigodot": "⨀",
	"bigvee": "⋁", "bigwedge": "⋀", "bigsqcup": "⨆", "biguplus": "⨄",
	// Delimiters
	"langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋",
	"lvert": "|", "rvert": "|", "vert": "|", "lVert": "‖", "rVert": "‖", "Vert": "‖",
	"lbrace": "{", "rbrace": "}", "lbrack": "[", "rbrack": "]",
	// Dots
	"ldots": "…", "dots": "…", "dotsc": "…", "dotsb": "⋯", "dotsm": "⋯", "cdots": "⋯",
	"vdots": "⋮", "ddots": "⋱", "cdotp": "·", "ldotp": ".",
	// Function names, upright
	"log": "log", "ln": "ln", "lg": "lg", "exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan",
	"cot": "cot", "sec": "sec", "csc": "csc", "arcsin": "arcsin", "arccos": "arccos",
	"arctan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "coth": "coth",
	"lim": "lim", "limsup": "lim sup", "liminf": "lim inf", "sup": "sup", "inf": "inf",
	"max": "max", "min": "min", "arg": "arg", "det": "det", "dim": "dim", "deg": "deg",
	"ker": "ker", "gcd": "gcd", "hom": "hom", "Pr": "Pr", "injlim": "inj lim", "projlim": "proj lim",
	// Spacing and sizing: white space, or nothing at all
	",": " ", ":": " ", ";": " ", ">": " ", " ": " ", "!": "", "quad": "  ", "qquad": "    ",
	"enspace": " ", "thinspace": " ", "medspace": " ", "thickspace": " ", "negthinspace": "",
	"limits": "", "nolimits": "", "displaystyle": "", "textstyle": "", "scriptstyle": "",
	"scriptscriptstyle": "", "nonumber": "", "notag": "", "hline": "", "bigskip": "",
	"medskip": "", "smallskip": "", "noindent": "", "newline": " ", "allowbreak": "",
	"big": "", "Big": "", "bigg": "", "Bigg": "",
	// Escaped characters
	"{": "{", "}": "}", "|": "‖", "%": "%", "$": "$", "&": "&", "#": "#", "_": "_",
	"S": "§", "P": "¶", "dag": "†", "ddag": "‡", "checkmark": "✓",
}

// delimCommands are the sizing commands followed by a delimiter: the command is dropped
// and the delimiter kept ("." is the empty one).
var delimCommands = map[string]bool{
	"left": true, "right": true, "middle": true,
	"bigl": true, "bigr": true, "bigm": true, "Bigl": true, "Bigr": true, "Bigm": true,
	"biggl": true, "biggr": true, "biggm": true, "Biggl": true, "Biggr": true, "Biggm": true,
}

// accents are combining marks put on each character of their argument.
var accents = map[string]rune{
	"bar": '\u0304', "overline": '\u0305', "hat": '\u0302', "widehat": '\u0302',
	"tilde": '\u0303', "widetilde": '\u0303', "vec": '\u20D7', "overrightarrow": '\u20D7',
	"dot": '\u0307', "ddot": '\u0308', "underline": '\u0332', "check": '\u030C',
	"breve": '\u0306', "acute": '\u0301', "grave": '\u0300', "mathring": '\u030A',
}

// negated are the relations \not turns into one symbol.
var negated = map[string]string{
	"=": "≠", "<": "≮", ">": "≯", "∈": "∉", "∋": "∌", "⊂": "⊄", "⊃": "⊅", "⊆": "⊈",
	"⊇": "⊉", "≡": "≢", "∣": "∤", "∼": "≁", "≅": "≇", "≈": "≉", "≤": "≰", "≥": "≱",
	"∃": "∄", "∥": "∦", "⊢": "⊬", "⊨": "⊭", "≃": "≄", "→": "↛", "⇒": "⇏", "⇔": "⇎",
}

// Superscript and subscript forms; a script is written with them only when every
// character has one.
var (
	superscripts = map[rune]rune{
		'0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹',
		'+': '⁺', '-': '⁻', '−': '⁻', '=': '⁼', '(': '⁽', ')': '⁾',
		'a': 'ᵃ', 'b': 'ᵇ', 'c': 'ᶜ', 'd': 'ᵈ', 'e': 'ᵉ', 'f': 'ᶠ', 'g': 'ᵍ', 'h': 'ʰ', 'i': 'ⁱ',
		'j': 'ʲ', 'k': 'ᵏ', 'l': 'ˡ', 'm': 'ᵐ', 'n': 'ⁿ', 'o': 'ᵒ', 'p': 'ᵖ', 'r': 'ʳ', 's': 'ˢ',
		't': 'ᵗ', 'u': 'ᵘ', 'v': 'ᵛ', 'w': 'ʷ', 'x': 'ˣ', 'y': 'ʸ', 'z': 'ᶻ',
		'A': 'ᴬ', 'B': 'ᴮ', 'D': 'ᴰ', 'E': 'ᴱ', 'G': 'ᴳ', 'H': 'ᴴ', 'I': 'ᴵ', 'J': 'ᴶ', 'K': 'ᴷ',
		'L': 'ᴸ', 'M': 'ᴹ', 'N': 'ᴺ', 'O': 'ᴼ', 'P': 'ᴾ', 'R': 'ᴿ', 'T': 'ᵀ', 'U': 'ᵁ', 'V': 'ⱽ', 'W': 'ᵂ',
		'α': 'ᵅ', 'β': 'ᵝ', 'γ': 'ᵞ', 'δ': 'ᵟ', 'ε': 'ᵋ', 'θ': 'ᶿ', 'ι': 'ᶥ', 'φ': 'ᵠ', 'χ': 'ᵡ',
	}
	subscripts = map[rune]rune{
		'0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈', '9': '₉',
		'+': '₊', '-': '₋', '−': '₋', '=': '₌', '(': '₍', ')': '₎',
		'a': 'ₐ', 'e': 'ₑ', 'h': 'ₕ', 'i': 'ᵢ', 'j': 'ⱼ', 'k': 'ₖ', 'l': 'ₗ', 'm': 'ₘ', 'n': 'ₙ',
		'o': 'ₒ', 'p': 'ₚ', 'r': 'ᵣ', 's': 'ₛ', 't': 'ₜ', 'u': 'ᵤ', 'v': 'ᵥ', 'x': 'ₓ',
		'β': 'ᵦ', 'γ': 'ᵧ', 'ρ': 'ᵨ', 'φ': 'ᵩ', 'χ': 'ᵪ',
	}
)

// Letter styles: the offset of 'A' and 'a' (and '0') in the Mathematical Alphanumeric
// Symbols block, and the letters that live elsewhere.
type alphabet struct {
	upper, lower, digit rune // 0: none, the letter stays as it is
	except              map[rune]rune
}

var alphabets = map[string]alphabet{
	"mathbb": {upper: 0x1D538, lower: 0x1D552, digit: 0x1D7D8, except: map[rune]rune{
		'C': 'ℂ', 'H': 'ℍ', 'N': 'ℕ', 'P': 'ℙ', 'Q': 'ℚ', 'R': 'ℝ', 'Z': 'ℤ'}},
	"mathbf":     {upper: 0x1D400, lower: 0x1D41A, digit: 0x1D7CE},
	"bold":       {upper: 0x1D400, lower: 0x1D41A, digit: 0x1D7CE},
	"mathbfit":   {upper: 0x1D468, lower: 0x1D482},
	"boldsymbol": {upper: 0x1D400, lower: 0x1D41A, digit: 0x1D7CE},
	"bm":         {upper: 0x1D400, lower: 0x1D41A, digit: 0x1D7CE},
	"mathcal":    {upper: 0x1D49C, except: mathcalExcept},
	"mathscr":    {upper: 0x1D49C, except: mathcalExcept},
	"mathfrak": {upper: 0x1D504, lower: 0x1D51E, except: map[rune]rune{
		'C': 'ℭ', 'H': 'ℌ', 'I': 'ℑ', 'R': 'ℜ', 'Z': 'ℨ'}},
	"mathsf": {upper: 0x1D5A0, lower: 0x1D5BA, digit: 0x1D7E2},
	"mathtt": {upper: 0x1D670, lower: 0x1D68A, digit: 0x1D7F6},
}

var mathcalExcept = map[rune]rune{'B': 'ℬ', 'E': 'ℰ', 'F': 'ℱ', 'H': 'ℋ', 'I': 'ℐ', 'L': 'ℒ', 'M': 'ℳ', 'R': 'ℛ'}

// plainStyles keep their argument's letters as they are: upright or text.
var plainStyles = map[string]bool{
	"mathrm": true, "mathit": true, "mathnormal": true, "operatorname": true, "operatorname*": true,
	"mathop": true, "mathbin": true, "mathrel": true, "mathord": true,
}

// textStyles hold text (which may hold $…$ again).
var textStyles = map[string]bool{
	"text": true, "textrm": true, "textit": true, "textbf": true, "textsf": true, "texttt": true,
	"textup": true, "textnormal": true, "mbox": true, "hbox": true, "emph": true, "textsl": true,
	"intertext": true,
}
