%{
/* SPDX-License-Identifier: MIT */
/*
 * dt_grammar.y: the D grammar (bison, pure parser).
 *
 * A D program is a sequence of clauses (probe descriptions, an optional
 * predicate and a statement list), declarations, inline definitions,
 * translator definitions and provider definitions.  Expressions are C's
 * with D's additions: string comparison, ^^, @aggregations, self-> and
 * this-> variables, associative arrays with tuple keys, stringof,
 * xlate<T>(e), and `scoped symbols.  Statements are expressions, and
 * if/else with blocks.
 *
 * The actions only build the parse tree (common/compiler/dt_node.c) and
 * apply declarations as soon as each one is complete (dt_decl.c), since
 * a typedef must be known before the next token is lexed.  All semantic
 * checks come later, in dt_cook.c.
 *
 * Declaration specifiers are collected bottom-up into a dt_decl_t; a
 * declarator is a chain of dt_decl_t derivations (pointer, array,
 * function) read from the identifier outwards, to which dt_decl.c applies
 * the base type from the inside out.
 */
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"

/*
 * The parser's stacks are sized once and live on the C stack: an error
 * found during the parse longjmps out of yyparse(), which would leak a
 * stack bison had grown with malloc().  Deeper nesting than this is an
 * error ("program too deeply nested"), not a crash.
 */
#define YYINITDEPTH 2000
#define YYMAXDEPTH 2000
%}

%code requires {
#include "common/compiler/dt_cc.h"
typedef struct dt_intlit {
	uint64_t value;
	const char *text;	/* source text, for the type of the constant */
} dt_intlit_t;
}

%code provides {
extern int dt_lex_token(DT_YYSTYPE *lval, void *scanner);
extern const char *dt_lex_text(dt_pcb_t *pcb);
extern int dt_lex_lineno(dt_pcb_t *pcb);
}

%code {
static int
dt_yylex(DT_YYSTYPE *lval, dt_pcb_t *pcb)
{
	return dt_lex_token(lval, pcb->pcb_scanner);
}

static void
dt_yyerror(dt_pcb_t *pcb, const char *msg)
{
	dt_cc_syntax(pcb, dt_lex_text(pcb), msg);
}

#define DECL(kind) dt_decl_new(pcb, (kind))
#define N(kind) dt_node_alloc(pcb, (kind))
}

/*
 * No conflicts: a type name after declaration specifiers is always a
 * type (dt_decl_merge() turns "int foo_t;" back into a declarator), and
 * parameters take no storage class but register.
 */
%expect 0
%define api.pure full
%define api.prefix {dt_yy}
%parse-param {dt_pcb_t *pcb}
%lex-param {dt_pcb_t *pcb}

%union {
	char *l_str;
	dt_intlit_t l_int;
	dt_node_t *l_node;
	dt_decl_t *l_decl;
	int l_tok;
}

%token DT_TOK_COMMA DT_TOK_ELLIPSIS
%token DT_TOK_ASGN DT_TOK_ADD_EQ DT_TOK_SUB_EQ DT_TOK_MUL_EQ
%token DT_TOK_DIV_EQ DT_TOK_MOD_EQ DT_TOK_AND_EQ DT_TOK_XOR_EQ DT_TOK_OR_EQ
%token DT_TOK_LSH_EQ DT_TOK_RSH_EQ
%token DT_TOK_QUESTION DT_TOK_COLON
%token DT_TOK_LOR DT_TOK_LXOR DT_TOK_LAND
%token DT_TOK_BOR DT_TOK_XOR DT_TOK_BAND
%token DT_TOK_EQU DT_TOK_NEQ DT_TOK_LT DT_TOK_LE DT_TOK_GT DT_TOK_GE
%token DT_TOK_LSH DT_TOK_RSH DT_TOK_ADD DT_TOK_SUB DT_TOK_MUL DT_TOK_DIV
%token DT_TOK_MOD DT_TOK_LNEG DT_TOK_BNEG DT_TOK_ADDADD DT_TOK_SUBSUB
%token DT_TOK_SIZEOF DT_TOK_STRINGOF DT_TOK_OFFSETOF DT_TOK_XLATE
%token DT_TOK_LPAR DT_TOK_RPAR DT_TOK_LBRAC DT_TOK_RBRAC
%token DT_TOK_LBRACE DT_TOK_RBRACE DT_TOK_PTR DT_TOK_DOT DT_TOK_EPRED

%token <l_str> DT_TOK_STRING DT_TOK_IDENT DT_TOK_PSPEC DT_TOK_AGG
%token <l_str> DT_TOK_TNAME
%token <l_int> DT_TOK_INT

%token DT_KEY_AUTO DT_KEY_BREAK DT_KEY_CASE DT_KEY_CHAR DT_KEY_CONST
%token DT_KEY_CONTINUE DT_KEY_COUNTER DT_KEY_DEFAULT DT_KEY_DO DT_KEY_DOUBLE
%token DT_KEY_ELSE DT_KEY_ENUM DT_KEY_EXTERN DT_KEY_FLOAT DT_KEY_FOR
%token DT_KEY_GOTO DT_KEY_IF DT_KEY_IMPORT DT_KEY_INLINE DT_KEY_INT
%token DT_KEY_LONG DT_KEY_PROBE DT_KEY_PROVIDER DT_KEY_REGISTER
%token DT_KEY_RESTRICT DT_KEY_RETURN DT_KEY_SELF DT_KEY_SHORT DT_KEY_SIGNED
%token DT_KEY_STATIC DT_KEY_STRING DT_KEY_STRUCT DT_KEY_SWITCH DT_KEY_THIS
%token DT_KEY_TYPEDEF DT_KEY_UNION DT_KEY_UNSIGNED DT_KEY_VOID
%token DT_KEY_VOLATILE DT_KEY_WHILE DT_KEY_XLATOR

%type <l_node> translation_unit external_declaration probe_definition
%type <l_node> probe_specifiers probe_specifier_list probe_specifier
%type <l_node> statement_list statement_list_impl statement
%type <l_node> statement_or_block selection_statement
%type <l_node> primary_expression postfix_expression unary_expression
%type <l_node> cast_expression multiplicative_expression additive_expression
%type <l_node> shift_expression relational_expression equality_expression
%type <l_node> and_expression exclusive_or_expression inclusive_or_expression
%type <l_node> logical_and_expression logical_xor_expression
%type <l_node> logical_or_expression conditional_expression
%type <l_node> assignment_expression expression constant_expression
%type <l_node> argument_expression_list
%type <l_node> inline_definition translator_definition provider_definition
%type <l_node> translator_member_list translator_member
%type <l_node> provider_probe_list provider_probe
%type <l_node> parameter_type_list parameter_list parameter_declaration
%type <l_node> function_parameters array_parameters
%type <l_node> declaration
%type <l_tok> unary_operator assignment_operator struct_or_union

%type <l_decl> declaration_specifiers specifier_qualifier_list
%type <l_decl> storage_class_specifier type_specifier type_qualifier
%type <l_decl> struct_or_union_specifier enum_specifier
%type <l_decl> declarator direct_declarator abstract_declarator
%type <l_decl> direct_abstract_declarator pointer type_qualifier_list
%type <l_decl> init_declarator_list init_declarator type_name
%type <l_decl> struct_declarator_list struct_declarator xlate_type_name
%type <l_decl> parameter_specifiers

%nonassoc DT_PREC_IF
%nonassoc DT_KEY_ELSE

%destructor { } <*>

%%

d_program:
		%empty { pcb->pcb_root = dt_node_alloc(pcb, DT_NODE_PROG); }
	|	translation_unit {
			pcb->pcb_root = dt_node_alloc(pcb, DT_NODE_PROG);
			pcb->pcb_root->dn_body = $1;
		}
	;

translation_unit:
		external_declaration
	|	translation_unit external_declaration {
			$$ = dt_node_link($1, $2);
		}
	;

external_declaration:
		probe_definition
	|	declaration
	|	inline_definition
	|	translator_definition
	|	provider_definition
	;

/*
 * Clauses.  As in DTrace, a probe description with neither predicate nor
 * actions is accepted only from a string (dtrace -n BEGIN).
 */
probe_definition:
		probe_specifiers {
			if (pcb->pcb_fileptr != NULL)
				dt_cc_nerror(pcb, $1, D_SYNTAX, "expected "
				    "predicate and/or actions following probe "
				    "description");
			$$ = dt_node_clause(pcb, $1, NULL, NULL);
		}
	|	probe_specifiers DT_TOK_LBRACE statement_list DT_TOK_RBRACE {
			$$ = dt_node_clause(pcb, $1, NULL, $3);
		}
	|	probe_specifiers DT_TOK_DIV expression DT_TOK_EPRED {
			dt_cc_nerror(pcb, $3, D_SYNTAX, "expected actions { } "
			    "following probe description and predicate");
			$$ = $1;
		}
	|	probe_specifiers DT_TOK_DIV expression DT_TOK_EPRED
		    DT_TOK_LBRACE statement_list DT_TOK_RBRACE {
			$$ = dt_node_clause(pcb, $1, $3, $6);
		}
	;

probe_specifiers: probe_specifier_list ;

probe_specifier_list:
		probe_specifier
	|	probe_specifier_list DT_TOK_COMMA probe_specifier {
			$$ = dt_node_link($1, $3);
		}
	;

probe_specifier:
		DT_TOK_PSPEC { $$ = dt_node_pdesc(pcb, $1); }
	;

/* Statements: the last one of a list needs no semicolon. */
statement_list_impl:
		%empty { $$ = NULL; }
	|	statement_list_impl statement { $$ = dt_node_link($1, $2); }
	;

statement_list:
		statement_list_impl
	|	statement_list_impl expression {
			$$ = dt_node_link($1, dt_node_statement(pcb, $2));
		}
	;

statement:
		';' { $$ = NULL; }
	|	expression ';' { $$ = dt_node_statement(pcb, $1); }
	|	selection_statement
	;

selection_statement:
		DT_KEY_IF DT_TOK_LPAR expression DT_TOK_RPAR
		    statement_or_block %prec DT_PREC_IF {
			$$ = dt_node_if(pcb, $3, $5, NULL);
		}
	|	DT_KEY_IF DT_TOK_LPAR expression DT_TOK_RPAR
		    statement_or_block DT_KEY_ELSE statement_or_block {
			$$ = dt_node_if(pcb, $3, $5, $7);
		}
	;

statement_or_block:
		statement
	|	DT_TOK_LBRACE statement_list DT_TOK_RBRACE { $$ = $2; }
	;

/* Expressions, from the tightest binding outwards. */
primary_expression:
		DT_TOK_IDENT { $$ = dt_node_ident(pcb, $1); }
	|	DT_TOK_AGG {
			$$ = dt_node_ident(pcb, $1);
			$$->dn_flags |= DT_NF_AGGIDENT;
		}
	|	DT_TOK_INT { $$ = dt_node_int(pcb, $1.value, $1.text); }
	|	DT_TOK_STRING { $$ = dt_node_string(pcb, $1); }
	|	DT_KEY_SELF { $$ = dt_node_ident(pcb, dt_cc_strdup(pcb, "self")); }
	|	DT_KEY_THIS { $$ = dt_node_ident(pcb, dt_cc_strdup(pcb, "this")); }
	|	DT_TOK_LPAR expression DT_TOK_RPAR { $$ = $2; }
	;

postfix_expression:
		primary_expression
	|	postfix_expression DT_TOK_LBRAC argument_expression_list
		    DT_TOK_RBRAC {
			$$ = dt_node_op2(pcb, DT_OP_LBRAC, $1, $3);
		}
	|	postfix_expression DT_TOK_LPAR DT_TOK_RPAR {
			$$ = dt_node_func(pcb, $1, NULL);
		}
	|	postfix_expression DT_TOK_LPAR argument_expression_list
		    DT_TOK_RPAR {
			$$ = dt_node_func(pcb, $1, $3);
		}
	|	postfix_expression DT_TOK_DOT DT_TOK_IDENT {
			$$ = dt_node_op2(pcb, DT_OP_DOT, $1,
			    dt_node_ident(pcb, $3));
		}
	|	postfix_expression DT_TOK_DOT DT_TOK_TNAME {
			$$ = dt_node_op2(pcb, DT_OP_DOT, $1,
			    dt_node_ident(pcb, $3));
		}
	|	postfix_expression DT_TOK_PTR DT_TOK_IDENT {
			$$ = dt_node_op2(pcb, DT_OP_PTR, $1,
			    dt_node_ident(pcb, $3));
		}
	|	postfix_expression DT_TOK_PTR DT_TOK_TNAME {
			$$ = dt_node_op2(pcb, DT_OP_PTR, $1,
			    dt_node_ident(pcb, $3));
		}
	|	postfix_expression DT_TOK_ADDADD {
			$$ = dt_node_op1(pcb, DT_OP_POSTINC, $1);
		}
	|	postfix_expression DT_TOK_SUBSUB {
			$$ = dt_node_op1(pcb, DT_OP_POSTDEC, $1);
		}
	|	DT_TOK_OFFSETOF DT_TOK_LPAR type_name DT_TOK_COMMA
		    DT_TOK_IDENT DT_TOK_RPAR {
			$$ = dt_node_op2(pcb, DT_OP_OFFSETOF,
			    dt_node_type(pcb, $3), dt_node_ident(pcb, $5));
		}
	|	DT_TOK_OFFSETOF DT_TOK_LPAR type_name DT_TOK_COMMA
		    DT_TOK_TNAME DT_TOK_RPAR {
			$$ = dt_node_op2(pcb, DT_OP_OFFSETOF,
			    dt_node_type(pcb, $3), dt_node_ident(pcb, $5));
		}
	|	DT_TOK_XLATE DT_TOK_LT xlate_type_name DT_TOK_GT
		    DT_TOK_LPAR expression DT_TOK_RPAR {
			$$ = dt_node_op2(pcb, DT_OP_XLATE,
			    dt_node_type(pcb, $3), $6);
		}
	;

xlate_type_name: type_name ;

argument_expression_list:
		assignment_expression
	|	argument_expression_list DT_TOK_COMMA assignment_expression {
			$$ = dt_node_link($1, $3);
		}
	;

unary_expression:
		postfix_expression
	|	DT_TOK_ADDADD unary_expression {
			$$ = dt_node_op1(pcb, DT_OP_PREINC, $2);
		}
	|	DT_TOK_SUBSUB unary_expression {
			$$ = dt_node_op1(pcb, DT_OP_PREDEC, $2);
		}
	|	unary_operator cast_expression {
			$$ = dt_node_op1(pcb, (dt_op_t) $1, $2);
		}
	|	DT_TOK_SIZEOF unary_expression {
			$$ = dt_node_op1(pcb, DT_OP_SIZEOF, $2);
		}
	|	DT_TOK_SIZEOF DT_TOK_LPAR type_name DT_TOK_RPAR {
			$$ = dt_node_op1(pcb, DT_OP_SIZEOF,
			    dt_node_type(pcb, $3));
		}
	|	DT_TOK_STRINGOF unary_expression {
			$$ = dt_node_op1(pcb, DT_OP_STRINGOF, $2);
		}
	;

unary_operator:
		DT_TOK_BAND { $$ = DT_OP_ADDROF; }
	|	DT_TOK_MUL { $$ = DT_OP_DEREF; }
	|	DT_TOK_ADD { $$ = DT_OP_IPOS; }
	|	DT_TOK_SUB { $$ = DT_OP_INEG; }
	|	DT_TOK_BNEG { $$ = DT_OP_BNEG; }
	|	DT_TOK_LNEG { $$ = DT_OP_LNEG; }
	;

cast_expression:
		unary_expression
	|	DT_TOK_LPAR type_name DT_TOK_RPAR cast_expression {
			$$ = dt_node_op2(pcb, DT_OP_CAST,
			    dt_node_type(pcb, $2), $4);
		}
	;

multiplicative_expression:
		cast_expression
	|	multiplicative_expression DT_TOK_MUL cast_expression {
			$$ = dt_node_op2(pcb, DT_OP_MUL, $1, $3);
		}
	|	multiplicative_expression DT_TOK_DIV cast_expression {
			$$ = dt_node_op2(pcb, DT_OP_DIV, $1, $3);
		}
	|	multiplicative_expression DT_TOK_MOD cast_expression {
			$$ = dt_node_op2(pcb, DT_OP_MOD, $1, $3);
		}
	;

additive_expression:
		multiplicative_expression
	|	additive_expression DT_TOK_ADD multiplicative_expression {
			$$ = dt_node_op2(pcb, DT_OP_ADD, $1, $3);
		}
	|	additive_expression DT_TOK_SUB multiplicative_expression {
			$$ = dt_node_op2(pcb, DT_OP_SUB, $1, $3);
		}
	;

shift_expression:
		additive_expression
	|	shift_expression DT_TOK_LSH additive_expression {
			$$ = dt_node_op2(pcb, DT_OP_LSH, $1, $3);
		}
	|	shift_expression DT_TOK_RSH additive_expression {
			$$ = dt_node_op2(pcb, DT_OP_RSH, $1, $3);
		}
	;

relational_expression:
		shift_expression
	|	relational_expression DT_TOK_LT shift_expression {
			$$ = dt_node_op2(pcb, DT_OP_LT, $1, $3);
		}
	|	relational_expression DT_TOK_GT shift_expression {
			$$ = dt_node_op2(pcb, DT_OP_GT, $1, $3);
		}
	|	relational_expression DT_TOK_LE shift_expression {
			$$ = dt_node_op2(pcb, DT_OP_LE, $1, $3);
		}
	|	relational_expression DT_TOK_GE shift_expression {
			$$ = dt_node_op2(pcb, DT_OP_GE, $1, $3);
		}
	;

equality_expression:
		relational_expression
	|	equality_expression DT_TOK_EQU relational_expression {
			$$ = dt_node_op2(pcb, DT_OP_EQU, $1, $3);
		}
	|	equality_expression DT_TOK_NEQ relational_expression {
			$$ = dt_node_op2(pcb, DT_OP_NEQ, $1, $3);
		}
	;

and_expression:
		equality_expression
	|	and_expression DT_TOK_BAND equality_expression {
			$$ = dt_node_op2(pcb, DT_OP_BAND, $1, $3);
		}
	;

exclusive_or_expression:
		and_expression
	|	exclusive_or_expression DT_TOK_XOR and_expression {
			$$ = dt_node_op2(pcb, DT_OP_XOR, $1, $3);
		}
	;

inclusive_or_expression:
		exclusive_or_expression
	|	inclusive_or_expression DT_TOK_BOR exclusive_or_expression {
			$$ = dt_node_op2(pcb, DT_OP_BOR, $1, $3);
		}
	;

logical_and_expression:
		inclusive_or_expression
	|	logical_and_expression DT_TOK_LAND inclusive_or_expression {
			$$ = dt_node_op2(pcb, DT_OP_LAND, $1, $3);
		}
	;

logical_xor_expression:
		logical_and_expression
	|	logical_xor_expression DT_TOK_LXOR logical_and_expression {
			$$ = dt_node_op2(pcb, DT_OP_LXOR, $1, $3);
		}
	;

logical_or_expression:
		logical_xor_expression
	|	logical_or_expression DT_TOK_LOR logical_xor_expression {
			$$ = dt_node_op2(pcb, DT_OP_LOR, $1, $3);
		}
	;

conditional_expression:
		logical_or_expression
	|	logical_or_expression DT_TOK_QUESTION expression DT_TOK_COLON
		    conditional_expression {
			$$ = dt_node_op3(pcb, $1, $3, $5);
		}
	;

assignment_expression:
		conditional_expression
	|	unary_expression assignment_operator assignment_expression {
			$$ = dt_node_op2(pcb, (dt_op_t) $2, $1, $3);
		}
	;

assignment_operator:
		DT_TOK_ASGN { $$ = DT_OP_ASGN; }
	|	DT_TOK_MUL_EQ { $$ = DT_OP_MUL_EQ; }
	|	DT_TOK_DIV_EQ { $$ = DT_OP_DIV_EQ; }
	|	DT_TOK_MOD_EQ { $$ = DT_OP_MOD_EQ; }
	|	DT_TOK_ADD_EQ { $$ = DT_OP_ADD_EQ; }
	|	DT_TOK_SUB_EQ { $$ = DT_OP_SUB_EQ; }
	|	DT_TOK_LSH_EQ { $$ = DT_OP_LSH_EQ; }
	|	DT_TOK_RSH_EQ { $$ = DT_OP_RSH_EQ; }
	|	DT_TOK_AND_EQ { $$ = DT_OP_AND_EQ; }
	|	DT_TOK_XOR_EQ { $$ = DT_OP_XOR_EQ; }
	|	DT_TOK_OR_EQ { $$ = DT_OP_OR_EQ; }
	;

expression:
		assignment_expression
	|	expression DT_TOK_COMMA assignment_expression {
			$$ = dt_node_op2(pcb, DT_OP_COMMA, $1, $3);
		}
	;

constant_expression: conditional_expression ;

/*
 * Declarations.  Specifiers are merged bottom-up into one dt_decl_t; each
 * declarator is applied to them when the declaration is complete.
 */
declaration:
		declaration_specifiers ';' {
			dt_decl_declare(pcb, $1, NULL);
			$$ = dt_node_alloc(pcb, DT_NODE_DECL);
			$$->dn_flags |= DT_NF_COOKED;
		}
	|	declaration_specifiers init_declarator_list ';' {
			dt_decl_declare(pcb, $1, $2);
			$$ = dt_node_alloc(pcb, DT_NODE_DECL);
			$$->dn_flags |= DT_NF_COOKED;
		}
	;

declaration_specifiers:
		storage_class_specifier
	|	storage_class_specifier declaration_specifiers {
			$$ = dt_decl_merge(pcb, $2, $1);
		}
	|	type_specifier
	|	type_specifier declaration_specifiers {
			$$ = dt_decl_merge(pcb, $2, $1);
		}
	|	type_qualifier
	|	type_qualifier declaration_specifiers {
			$$ = dt_decl_merge(pcb, $2, $1);
		}
	;

storage_class_specifier:
		DT_KEY_AUTO { $$ = dt_decl_class(pcb, DT_DC_AUTO); }
	|	DT_KEY_REGISTER { $$ = dt_decl_class(pcb, DT_DC_REGISTER); }
	|	DT_KEY_STATIC { $$ = dt_decl_class(pcb, DT_DC_STATIC); }
	|	DT_KEY_EXTERN { $$ = dt_decl_class(pcb, DT_DC_EXTERN); }
	|	DT_KEY_TYPEDEF { $$ = dt_decl_class(pcb, DT_DC_TYPEDEF); }
	|	DT_KEY_SELF { $$ = dt_decl_class(pcb, DT_DC_SELF); }
	|	DT_KEY_THIS { $$ = dt_decl_class(pcb, DT_DC_THIS); }
	;

type_specifier:
		DT_KEY_VOID { $$ = dt_decl_spec(pcb, "void"); }
	|	DT_KEY_CHAR { $$ = dt_decl_spec(pcb, "char"); }
	|	DT_KEY_SHORT { $$ = dt_decl_attr(pcb, DT_DA_SHORT); }
	|	DT_KEY_INT { $$ = dt_decl_spec(pcb, "int"); }
	|	DT_KEY_LONG { $$ = dt_decl_attr(pcb, DT_DA_LONG); }
	|	DT_KEY_FLOAT { $$ = dt_decl_spec(pcb, "float"); }
	|	DT_KEY_DOUBLE { $$ = dt_decl_spec(pcb, "double"); }
	|	DT_KEY_SIGNED { $$ = dt_decl_attr(pcb, DT_DA_SIGNED); }
	|	DT_KEY_UNSIGNED { $$ = dt_decl_attr(pcb, DT_DA_UNSIGNED); }
	|	DT_KEY_STRING { $$ = dt_decl_spec(pcb, "string"); }
	|	DT_TOK_TNAME { $$ = dt_decl_spec(pcb, $1); }
	|	struct_or_union_specifier
	|	enum_specifier
	;

type_qualifier:
		DT_KEY_CONST { $$ = dt_decl_attr(pcb, DT_DA_CONST); }
	|	DT_KEY_RESTRICT { $$ = dt_decl_attr(pcb, DT_DA_RESTRICT); }
	|	DT_KEY_VOLATILE { $$ = dt_decl_attr(pcb, DT_DA_VOLATILE); }
	;

struct_or_union_specifier:
		struct_or_union DT_TOK_LBRACE {
			dt_decl_sou_begin(pcb, $1, NULL);
		} struct_declaration_list DT_TOK_RBRACE {
			$$ = dt_decl_sou_end(pcb);
		}
	|	struct_or_union DT_TOK_IDENT DT_TOK_LBRACE {
			dt_decl_sou_begin(pcb, $1, $2);
		} struct_declaration_list DT_TOK_RBRACE {
			$$ = dt_decl_sou_end(pcb);
		}
	|	struct_or_union DT_TOK_TNAME DT_TOK_LBRACE {
			dt_decl_sou_begin(pcb, $1, $2);
		} struct_declaration_list DT_TOK_RBRACE {
			$$ = dt_decl_sou_end(pcb);
		}
	|	struct_or_union DT_TOK_IDENT { $$ = dt_decl_sou_ref(pcb, $1, $2); }
	|	struct_or_union DT_TOK_TNAME { $$ = dt_decl_sou_ref(pcb, $1, $2); }
	;

struct_or_union:
		DT_KEY_STRUCT { $$ = CTF_K_STRUCT; }
	|	DT_KEY_UNION { $$ = CTF_K_UNION; }
	;

struct_declaration_list:
		struct_declaration
	|	struct_declaration_list struct_declaration
	;

struct_declaration:
		specifier_qualifier_list struct_declarator_list ';' {
			dt_decl_sou_members(pcb, $1, $2);
		}
	|	specifier_qualifier_list ';' {
			dt_decl_sou_members(pcb, $1, NULL);
		}
	;

specifier_qualifier_list:
		type_specifier
	|	type_specifier specifier_qualifier_list {
			$$ = dt_decl_merge(pcb, $2, $1);
		}
	|	type_qualifier
	|	type_qualifier specifier_qualifier_list {
			$$ = dt_decl_merge(pcb, $2, $1);
		}
	;

struct_declarator_list:
		struct_declarator
	|	struct_declarator_list DT_TOK_COMMA struct_declarator {
			$$ = dt_decl_list_append($1, $3);
		}
	;

struct_declarator:
		declarator
	|	DT_TOK_COLON constant_expression {
			$$ = DECL(DT_DK_NONE);
			$$->dd_node = $2;
			$$->dd_attr |= DT_DA_BITFIELD;
		}
	|	declarator DT_TOK_COLON constant_expression {
			$$ = $1;
			$$->dd_node = $3;
			$$->dd_attr |= DT_DA_BITFIELD;
		}
	;

enum_specifier:
		DT_KEY_ENUM DT_TOK_LBRACE {
			dt_decl_enum_begin(pcb, NULL);
		} enumerator_list opt_comma DT_TOK_RBRACE {
			$$ = dt_decl_enum_end(pcb);
		}
	|	DT_KEY_ENUM DT_TOK_IDENT DT_TOK_LBRACE {
			dt_decl_enum_begin(pcb, $2);
		} enumerator_list opt_comma DT_TOK_RBRACE {
			$$ = dt_decl_enum_end(pcb);
		}
	|	DT_KEY_ENUM DT_TOK_TNAME DT_TOK_LBRACE {
			dt_decl_enum_begin(pcb, $2);
		} enumerator_list opt_comma DT_TOK_RBRACE {
			$$ = dt_decl_enum_end(pcb);
		}
	|	DT_KEY_ENUM DT_TOK_IDENT { $$ = dt_decl_sou_ref(pcb, CTF_K_ENUM, $2); }
	|	DT_KEY_ENUM DT_TOK_TNAME { $$ = dt_decl_sou_ref(pcb, CTF_K_ENUM, $2); }
	;

opt_comma: %empty | DT_TOK_COMMA ;

enumerator_list:
		enumerator
	|	enumerator_list DT_TOK_COMMA enumerator
	;

enumerator:
		DT_TOK_IDENT { dt_decl_enumerator(pcb, $1, NULL); }
	|	DT_TOK_IDENT DT_TOK_ASGN constant_expression {
			dt_decl_enumerator(pcb, $1, $3);
		}
	;

init_declarator_list:
		init_declarator
	|	init_declarator_list DT_TOK_COMMA init_declarator {
			$$ = dt_decl_list_append($1, $3);
		}
	;

init_declarator: declarator ;

declarator:
		direct_declarator
	|	pointer direct_declarator { $$ = dt_decl_chain(pcb, $2, $1); }
	;

direct_declarator:
		DT_TOK_IDENT {
			$$ = DECL(DT_DK_NONE);
			$$->dd_ident = $1;
		}
	|	DT_TOK_LPAR declarator DT_TOK_RPAR {
			$$ = $2;
			$$->dd_attr |= DT_DA_PAREN;
		}
	|	direct_declarator array_parameters {
			dt_decl_t *d = DECL(DT_DK_ARRAY);
			d->dd_node = $2;
			$$ = dt_decl_chain(pcb, $1, d);
		}
	|	direct_declarator function_parameters {
			dt_decl_t *d = DECL(DT_DK_FUNC);
			d->dd_node = $2;
			$$ = dt_decl_chain(pcb, $1, d);
		}
	;

pointer:
		DT_TOK_MUL { $$ = DECL(DT_DK_PTR); }
	|	DT_TOK_MUL type_qualifier_list {
			$$ = DECL(DT_DK_PTR);
			$$->dd_attr |= $2->dd_attr;
		}
	|	DT_TOK_MUL pointer { $$ = dt_decl_chain(pcb, $2, DECL(DT_DK_PTR)); }
	|	DT_TOK_MUL type_qualifier_list pointer {
			dt_decl_t *p = DECL(DT_DK_PTR);
			p->dd_attr |= $2->dd_attr;
			$$ = dt_decl_chain(pcb, $3, p);
		}
	;

type_qualifier_list:
		type_qualifier
	|	type_qualifier_list type_qualifier {
			$$ = dt_decl_merge(pcb, $1, $2);
		}
	;

array_parameters:
		DT_TOK_LBRAC DT_TOK_RBRAC { $$ = NULL; }
	|	DT_TOK_LBRAC constant_expression DT_TOK_RBRAC { $$ = $2; }
	|	DT_TOK_LBRAC parameter_type_list DT_TOK_RBRAC {
			$$ = $2;
		}
	;

function_parameters:
		DT_TOK_LPAR DT_TOK_RPAR { $$ = NULL; }
	|	DT_TOK_LPAR parameter_type_list DT_TOK_RPAR { $$ = $2; }
	;

parameter_type_list:
		parameter_list
	|	parameter_list DT_TOK_COMMA DT_TOK_ELLIPSIS {
			$$ = dt_node_link($1, dt_decl_param(pcb, NULL, NULL));
		}
	|	DT_TOK_ELLIPSIS { $$ = dt_decl_param(pcb, NULL, NULL); }
	;

parameter_list:
		parameter_declaration
	|	parameter_list DT_TOK_COMMA parameter_declaration {
			$$ = dt_node_link($1, $3);
		}
	;

parameter_declaration:
		parameter_specifiers {
			$$ = dt_decl_param(pcb, $1, NULL);
		}
	|	parameter_specifiers declarator {
			$$ = dt_decl_param(pcb, $1, $2);
		}
	|	parameter_specifiers abstract_declarator {
			$$ = dt_decl_param(pcb, $1, $2);
		}
	;

/*
 * Parameters take no storage class but register; dt_decl_param() says so
 * of the others.
 */
parameter_specifiers:
		specifier_qualifier_list
	|	storage_class_specifier specifier_qualifier_list {
			$$ = dt_decl_merge(pcb, $2, $1);
		}
	;

type_name:
		specifier_qualifier_list
	|	specifier_qualifier_list abstract_declarator {
			$$ = dt_decl_apply(pcb, $1, $2);
		}
	;

abstract_declarator:
		pointer
	|	direct_abstract_declarator
	|	pointer direct_abstract_declarator {
			$$ = dt_decl_chain(pcb, $2, $1);
		}
	;

direct_abstract_declarator:
		DT_TOK_LPAR abstract_declarator DT_TOK_RPAR {
			$$ = $2;
			$$->dd_attr |= DT_DA_PAREN;
		}
	|	array_parameters {
			dt_decl_t *d = DECL(DT_DK_NONE);
			dt_decl_t *a = DECL(DT_DK_ARRAY);
			a->dd_node = $1;
			$$ = dt_decl_chain(pcb, d, a);
		}
	|	direct_abstract_declarator array_parameters {
			dt_decl_t *a = DECL(DT_DK_ARRAY);
			a->dd_node = $2;
			$$ = dt_decl_chain(pcb, $1, a);
		}
	|	function_parameters {
			dt_decl_t *d = DECL(DT_DK_NONE);
			dt_decl_t *f = DECL(DT_DK_FUNC);
			f->dd_node = $1;
			$$ = dt_decl_chain(pcb, d, f);
		}
	|	direct_abstract_declarator function_parameters {
			dt_decl_t *f = DECL(DT_DK_FUNC);
			f->dd_node = $2;
			$$ = dt_decl_chain(pcb, $1, f);
		}
	;

/* inline type name = expression; */
inline_definition:
		DT_KEY_INLINE declaration_specifiers declarator DT_TOK_ASGN
		    assignment_expression ';' {
			$$ = dt_decl_inline(pcb, $2, $3, $5);
		}
	;

/* translator output-type < input-type name > { member = expr; ... }; */
translator_definition:
		DT_KEY_XLATOR type_name DT_TOK_LT type_name DT_TOK_IDENT
		    DT_TOK_GT {
			dt_decl_xlator_begin(pcb, $2, $4, $5);
		} DT_TOK_LBRACE translator_member_list DT_TOK_RBRACE ';' {
			$$ = dt_decl_xlator_end(pcb, $9);
		}
	;

translator_member_list:
		%empty { $$ = NULL; }
	|	translator_member_list translator_member {
			/* dt_decl_member() links them on the translator. */
			$$ = $1 != NULL ? $1 : $2;
		}
	;

translator_member:
		DT_TOK_IDENT DT_TOK_ASGN assignment_expression ';' {
			$$ = dt_decl_member(pcb, $1, $3);
		}
	|	DT_TOK_TNAME DT_TOK_ASGN assignment_expression ';' {
			$$ = dt_decl_member(pcb, $1, $3);
		}
	;

/* provider name { probe name(args) [: (xargs)]; ... }; */
provider_definition:
		DT_KEY_PROVIDER DT_TOK_IDENT DT_TOK_LBRACE provider_probe_list
		    DT_TOK_RBRACE ';' {
			$$ = dt_decl_provider(pcb, $2, $4);
		}
	;

provider_probe_list:
		%empty { $$ = NULL; }
	|	provider_probe_list provider_probe {
			$$ = dt_node_link($1, $2);
		}
	;

provider_probe:
		DT_KEY_PROBE DT_TOK_IDENT function_parameters ';' {
			$$ = dt_decl_probe(pcb, $2, $3, NULL, false);
		}
	|	DT_KEY_PROBE DT_TOK_IDENT function_parameters DT_TOK_COLON
		    function_parameters ';' {
			$$ = dt_decl_probe(pcb, $2, $3, $5, true);
		}
	;

%%

int
dt_parse(dt_pcb_t *pcb)
{
	return dt_yyparse(pcb);
}
