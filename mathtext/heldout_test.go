package mathtext

import "testing"

// Constructs of MATH test solutions outside the corpora (and a few made up around them)
// read as their source does.
func TestReadingHeldOut(t *testing.T) {
	for _, src := range []string{
		`\sin^{ - 1}(\sin 6x) = \cos^{ - 1}(\cos x)`,
		`\frac {a}{b} + \frac {b}{a} - ab`,
		`\frac ab + \frac ba - ab &= \frac a {a/(a+1)} + \frac {a /(a+1)}{a} - a\cdot \frac{a}{a+1}`,
		`\renewcommand{\arraystretch}{1.5} \begin{pmatrix} \frac{13}{14} & -\frac{1}{7} \\ 1 & 2 \end{pmatrix} \renewcommand{\arraystretch}{1}`,
		`\sum_{n = 0}^\infty \frac{\lfloor \tau^n \rceil}{2^n}`,
		`\displaystyle{f(x)=x^{(x+1)}(x+2)^{(x+3)}}`,
		`(2\cdot 3 \cdot 4 \cdot 5) + 1 \hphantom{)} &= 121.`,
		`\frac{2\left(\frac34\right)y + y}{3\left(\frac34y\right) - 2y}`,
		`\frac{\frac52y}{\frac{y}{4}}`,
		`8\cos^210^\circ - \dfrac{1}{\sin 10^\circ}`,
		`C = \left( \frac{\frac{\sqrt{6}}{4}}{\frac{\sqrt{10}}{4}}, 0, \frac{\frac{1}{2}}{\frac{\sqrt{10}}{4}} \right)`,
		`|x^2-16|=|(x+4)(x-4)|=|x+4|\,|x-4|`,
		`-\frac{5}{2} \pm \frac{\sqrt{7}}{2}i`,
		`\frac{1}{2}\left(\frac{20}{\sqrt{2}}\right)\left(\frac{20}{\sqrt{2}}\right)=\frac{400}{2\cdot 2}`,
		`0^z=0 for any z>0,\ f(0) =f(-2)= 0`,
		`1+\frac{1}{(-3)^2} = \boxed{\frac{10}{9}}`,
		`\frac y x\cdot\frac z y=\frac z x`,
		`x = \frac{-(5) \pm \sqrt{(5)^2 - 4(1)(8)}}{2 (1)}`,
		`\log_{2^b} 2018 = \frac{\log_2 2018}{\log_2 2^b}`,
		`e^{\pi i/4} = \frac{1}{\sqrt{2}} + \frac{i}{\sqrt{2}}`,
		`36x \sqrt{35x}`,
		`\frac{3}{4}y`,
		`2\frac{1}{2}`,
		`\frac{1\text{ min.}}{60\text{ sec.}}`,
		`\sqrt[3]{x\sqrt[3]{x}}`,
		`\frac{x}{2}\frac{y}{3}`,
		`a^{\frac12}b`,
		`\frac{1}{2}^{n}`,
		`3\sqrt{2}^2`,
		`\tfrac12(a+b)`,
		`{n \choose k}x^k`,
		`\binom{n}{k}^2`,
		`\frac{d}{dx}\sin x`,
		`\sqrt{a}\sqrt{b}`,
		`\sqrt{\frac{a}{b}}c`,
		`x^{-\frac{1}{2}}y`,
		`\frac{a}{b}!`,
		`\frac{1}{2}.5`,
		`2\frac{.5}{3}`,
		`\frac{1}{2}.5`,
		`\frac{1}{2}.`,
	} {
		out := Inline(src)
		ok, a, b := sameReading(src, out)
		if !ok {
			t.Errorf("%q shows %q\n  %s\n  %s", src, out, a, b)
		}
	}
}
