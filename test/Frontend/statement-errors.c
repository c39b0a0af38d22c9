// The statement after a region's directive is read before clang parses it.
// Where it is malformed, the tokens go to clang unchanged and clang's own
// error stands, at the offending token; homp adds nothing, reads no further
// and never crashes. Only a statement that is not there is homp's error.
// RUN: %clang_cc1_homp -fsyntax-only -fpass-plugin=%homp_pass -verify %s

void missing_paren(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = (y[i] + 1; // expected-error {{expected ')'}} expected-note {{to match this '('}}
}

// No subscript warning at a later statement: the region ends where clang's
// error is.
void missing_paren_in_braces(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i) {
    y[i] = (y[i] + 1; // expected-error {{expected ')'}} expected-note {{to match this '('}}
  }
  y[n / 2 + 1] = 0;
}

void missing_semicolon(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = 0 // expected-error {{expected ';' after expression}}
}

void extra_bracket(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = 0]; // expected-error {{extraneous ']' before ';'}}
}

// 'for', 'if' and 'switch' parentheses hold ';', lambdas and statement
// expressions braces: these scan as one statement.
void semicolons(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    y[i] = ({ int k = 0; for (int j = 0; j < 2; ++j) k += j; k; });
}

// A directive's parentheses are its own: an unclosed one does not make the
// statement malformed (clang reports it in the directive).
void directive_in_braces(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  {
#pragma omp parallel for schedule(static // expected-error {{expected ')'}} expected-note {{to match this '('}}
    for (int i = 0; i < n; ++i)
      y[i] = 0;
  }
}

void no_statement(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
} // expected-error {{homp: expected a complete statement after the directive}}

// A label at the end of a block is accepted by clang (C23), so the missing
// statement is homp's to report.
void label_only(double *y, int n) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  done:
} // expected-error {{homp: expected a complete statement after the directive}} expected-warning {{label at end of compound statement is a C23 extension}}

int after(void) { return 0; }
