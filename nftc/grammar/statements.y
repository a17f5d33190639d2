/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statements.
 *
 * One part of the nft grammar: nftc/Makefile.am concatenates
 * grammar/commands.y, blocks.y, matches.y and statements.y, in that
 * order, into parser.y (in the build tree) for bison.
 */

/* Statements */

verdict_expr	:	ACCEPT
			{
				$$ = verdict_expr_alloc(&@$, NF_ACCEPT, NULL);
			}
		|	DROP
			{
				$$ = verdict_expr_alloc(&@$, NF_DROP, NULL);
			}
		|	CONTINUE
			{
				$$ = verdict_expr_alloc(&@$, NFT_CONTINUE, NULL);
			}
		|	RETURN
			{
				$$ = verdict_expr_alloc(&@$, NFT_RETURN, NULL);
			}
		|	JUMP chain_target
			{
				$$ = verdict_expr_alloc(&@$, NFT_JUMP, $2);
			}
		|	GOTO chain_target
			{
				$$ = verdict_expr_alloc(&@$, NFT_GOTO, $2);
			}
		;

/* as chain_name, but stock expects an anonymous chain's '{' here */
chain_target	:	STRING
			{
				if (parser_chain_name(state, $1, &@1, "'{'") < 0) {
					free($1);
					YYERROR;
				}
				$$ = sym_expr(&@1, $1);
			}
		|	QUOTED_STRING
			{
				$$ = NULL;
				free($1);
				erec_error(state->erq, &@1, "syntax error, "
					   "unexpected quoted string, "
					   "expecting '{'");
				YYERROR;
			}
		|	kw_ident
			{
				if (parser_chain_name(state, $1, &@1, "'{'") < 0)
					YYERROR;
				$$ = sym_expr(&@1, strdup($1));
			}
		|	VARIABLE
			{
				$$ = var_expr(state, &@1, $1);
				if (!$$)
					YYERROR;
			}
		;

/*
 * An anonymous chain, "jump { RULE; ... }": bound to the rule that
 * jumps to it. Its rules need a separator each, as in stock; it is
 * numbered (chain id) before the chains nested in it.
 */
chain_stmt	:	chain_stmt_type chain_anon '{' subchain_block '}'
			{
				struct expr *v;

				v = verdict_expr_alloc(&@$, $1, NULL);
				state->scope_depth--;
				$2->location = @$;
				v->verdict.chain_id = $2->handle.chain_id;
				$$ = stmt_alloc(&@$, STMT_CHAIN);
				$$->chain.chain = $2;
				$$->chain.verdict = v;
			}
		;

chain_stmt_type	:	JUMP	{ $$ = NFT_JUMP; }
		|	GOTO	{ $$ = NFT_GOTO; }
		;

chain_anon	:	%empty
			{
				/*
				 * stock: a table, a chain and one anonymous
				 * chain; it parses on without more errors
				 */
				if (state->scope_depth >= PARSER_SCOPE_MAX)
					erec_error(state->erq, &@$, "too many "
						   "levels of nesting");
				$$ = chain_alloc();
				$$->handle.chain_id = ++state->chain_ids;
				state->scope_depth++;
			}
		;

/* The chain being filled is chain_anon's value, two symbols back. */
subchain_block	:	%empty
		|	subchain_block stmt_sep
		|	subchain_block rule stmt_sep
			{
				list_add_tail(&$2->list, &$<chain>-1->rules);
			}
		;

stmt		:	verdict_expr
			{
				$$ = verdict_stmt_alloc(&@$, $1);
			}
		|	lhs VMAP primary
			{
				$$ = verdict_stmt_alloc(&@$,
						map_expr_alloc(&@$, $1, $3));
			}
		;

counter_stmt	:	COUNTER
			{
				$$ = stmt_alloc(&@$, STMT_COUNTER);
			}
		|	counter_stmt PACKETS number
			{
				$$ = $1;
				$$->location = @$;
				$$->counter.packets = $3;
			}
		|	counter_stmt BYTES number
			{
				$$ = $1;
				$$->location = @$;
				$$->counter.bytes = $3;
			}
		;

log_stmt	:	LOG
			{
				$$ = stmt_alloc(&@$, STMT_LOG);
			}
		|	log_stmt PREFIX string
			{
				$$ = $1;
				free($$->log.prefix);
				$$->log.prefix = $3;
				$$->log.flags |= STMT_LOG_PREFIX;
			}
		|	log_stmt LEVEL STRING
			{
				$$ = $1;
				if (parse_log_level($3, &$$->log.level) < 0)
					erec_error(state->erq, &@3,
						   "invalid log level");
				free($3);
				$$->log.flags |= STMT_LOG_LEVEL;
			}
		|	log_stmt GROUP number
			{
				$$ = $1;
				$$->log.group = $3;
				$$->log.flags |= STMT_LOG_GROUP;
			}
		|	log_stmt SNAPLEN number
			{
				$$ = $1;
				$$->log.snaplen = $3;
				$$->log.flags |= STMT_LOG_SNAPLEN;
			}
		|	log_stmt QUEUE_THRESHOLD number
			{
				$$ = $1;
				$$->log.qthreshold = $3;
				$$->log.flags |= STMT_LOG_QTHRESHOLD;
			}
		|	log_stmt FLAGS log_flags
			{
				$$ = $1;
				$$->log.logflags |= $3;
			}
		;

log_flags	:	log_flag
		|	log_flags COMMA log_flag	{ $$ = $1 | $3; }
		;

log_flag	:	PROTO SEQUENCE		{ $$ = NF_LOG_TCPSEQ; }
		|	PROTO OPTIONS		{ $$ = NF_LOG_TCPOPT; }
		|	SEQUENCE		{ $$ = NF_LOG_TCPSEQ; }
		|	OPTIONS			{ $$ = NF_LOG_TCPOPT; }
		|	IP OPTIONS		{ $$ = NF_LOG_IPOPT; }
		|	META_UKEY		{ $$ = NF_LOG_UID; }
		|	PROTO			{ $$ = NF_LOG_MACDECODE; }
		|	ALL			{ $$ = NF_LOG_MASK; }
		;

limit_over	:	%empty		{ $$ = 0; }
		|	UNTIL		{ $$ = 0; }
		|	OVER		{ $$ = 1; }
		;

limit_stmt	:	LIMIT limit_args
			{
				$$ = $2;
				$$->location = @$;
			}
		;

limit_args	:	RATE limit_over number '/' rate_unit
			{
				$$ = limit_pkts(state, &@$, $2, $3, $5, &@5, 5);
			}
		|	RATE limit_over number '/' rate_unit BURST number
			PACKETS
			{
				$$ = limit_pkts(state, &@$, $2, $3, $5, &@5, $7);
			}
		|	RATE limit_over number STRING
			{
				$$ = limit_bytes(state, &@$, $2, $3, $4, &@4, NULL,
						 0, 0);
			}
		|	RATE limit_over number STRING BURST number
			byte_count
			{
				$$ = limit_bytes(state, &@$, $2, $3, $4, &@4, NULL,
						 $6, $7);
			}
		|	RATE limit_over number byte_count '/' rate_unit
			{
				$$ = limit_bytes(state, &@$, $2, $3, NULL, &@4, $6,
						 0, 0);
				$$->limit.rate *= $4;
			}
		;

/* "hour" and "day" are also meta keys */
rate_unit	:	STRING
		|	META_UKEY	{ $$ = strdup($1); }
		;

byte_count	:	BYTES		{ $$ = 1; }
		|	STRING
			{
				if (parse_byte_unit($1, &$$) < 0) {
					erec_error(state->erq, &@1,
						   "invalid byte unit %s", $1);
					$$ = 1;
				}
				free($1);
			}
		;

quota_stmt	:	QUOTA limit_over number byte_count
			{
				$$ = stmt_alloc(&@$, STMT_QUOTA);
				$$->quota.bytes = $3 * $4;
				$$->quota.flags = $2 ? NFT_QUOTA_F_INV : 0;
			}
		|	QUOTA limit_over number byte_count USED number
			byte_count
			{
				$$ = stmt_alloc(&@$, STMT_QUOTA);
				$$->quota.bytes = $3 * $4;
				$$->quota.used = $6 * $7;
				$$->quota.flags = $2 ? NFT_QUOTA_F_INV : 0;
			}
		;

reject_stmt	:	REJECTKW
			{
				$$ = stmt_alloc(&@$, STMT_REJECT);
				$$->reject.type = NFT_REJECT_ICMP_UNREACH;
			}
		|	REJECTKW WITH PROTO TYPE value_token
			{
				$$ = reject_with(state, &@$, $3, &@3, $5);
			}
		|	REJECTKW WITH PROTO value_token
			{
				$$ = reject_with(state, &@$, $3, &@3, $4);
			}
		|	REJECTKW WITH PROTO RESET
			{
				$$ = reject_with(state, &@$, $3, &@3, NULL);
			}
		;

value_token	:	STRING		{ $$ = sym_expr(&@1, $1); }
		|	NUM		{ $$ = sym_expr(&@1, $1); }
		|	VARIABLE
			{
				$$ = var_expr(state, &@1, $1);
				if (!$$)
					YYERROR;
			}
		;

nat_family	:	%empty		{ $$ = 0; }
		|	IP		{ $$ = NFPROTO_IPV4; }
		|	IP6		{ $$ = NFPROTO_IPV6; }
		;

nat_stmt	:	SNAT nat_family nat_args
			{
				$$ = $3;
				$$->location = @$;
				$$->nat.kind = NAT_SNAT;
				$$->nat.family = $2;
			}
		|	DNAT nat_family nat_args
			{
				$$ = $3;
				$$->location = @$;
				$$->nat.kind = NAT_DNAT;
				$$->nat.family = $2;
			}
		|	MASQUERADE
			{
				$$ = nat_new(&@$, NAT_MASQ);
			}
		|	MASQUERADE TO ':' expr
			{
				$$ = nat_new(&@$, NAT_MASQ);
				$$->nat.proto = $4;
			}
		|	MASQUERADE nat_flags
			{
				$$ = nat_new(&@$, NAT_MASQ);
				$$->nat.flags = $2;
			}
		|	MASQUERADE TO ':' expr nat_flags
			{
				$$ = nat_new(&@$, NAT_MASQ);
				$$->nat.proto = $4;
				$$->nat.flags = $5;
			}
		|	REDIRECT
			{
				$$ = nat_new(&@$, NAT_REDIR);
			}
		|	REDIRECT TO ':' expr
			{
				$$ = nat_new(&@$, NAT_REDIR);
				$$->nat.proto = $4;
			}
		|	REDIRECT TO expr
			{
				$$ = nat_new(&@$, NAT_REDIR);
				$$->nat.proto = $3;
			}
		|	REDIRECT nat_flags
			{
				$$ = nat_new(&@$, NAT_REDIR);
				$$->nat.flags = $2;
			}
		|	REDIRECT TO ':' expr nat_flags
			{
				$$ = nat_new(&@$, NAT_REDIR);
				$$->nat.proto = $4;
				$$->nat.flags = $5;
			}
		;

nat_args	:	nat_target
		|	nat_target nat_flags
			{
				$$ = $1;
				$$->nat.flags |= $2;
			}
		;

nat_target	:	TO expr
			{
				$$ = nat_new(&@$, NAT_SNAT);
				$$->nat.addr = $2;
			}
		|	TO expr ':' expr
			{
				$$ = nat_new(&@$, NAT_SNAT);
				$$->nat.addr = $2;
				$$->nat.proto = $4;
			}
		|	TO ':' expr
			{
				$$ = nat_new(&@$, NAT_SNAT);
				$$->nat.proto = $3;
			}
		|	PREFIX nat_target
			{
				$$ = $2;
				$$->nat.type_flags |= 1;
			}
		|	STRING '.' STRING nat_target
			{
				$$ = $4;
				$$->nat.type_flags |= 2;
				free($1);
				free($3);
			}
		;

nat_flags	:	nat_flag
		|	nat_flags COMMA nat_flag	{ $$ = $1 | $3; }
		;

nat_flag	:	PERSISTENT	{ $$ = NF_NAT_RANGE_PERSISTENT; }
		|	RANDOM		{ $$ = NF_NAT_RANGE_PROTO_RANDOM; }
		|	FULLY_RANDOM	{ $$ = NF_NAT_RANGE_PROTO_RANDOM_FULLY; }
		;

tproxy_stmt	:	TPROXY nat_family TO expr
			{
				$$ = stmt_alloc(&@$, STMT_TPROXY);
				$$->tproxy.family = $2;
				$$->tproxy.addr = $4;
			}
		|	TPROXY nat_family TO expr ':' expr
			{
				$$ = stmt_alloc(&@$, STMT_TPROXY);
				$$->tproxy.family = $2;
				$$->tproxy.addr = $4;
				$$->tproxy.port = $6;
			}
		|	TPROXY nat_family TO ':' expr
			{
				$$ = stmt_alloc(&@$, STMT_TPROXY);
				$$->tproxy.family = $2;
				$$->tproxy.port = $5;
			}
		;

queue_stmt	:	queue_base
		|	queue_base TO expr
			{
				$$ = $1;
				$$->location = @$;
				expr_free($$->queue.queue);
				$$->queue.queue = $3;
			}
		;

queue_base	:	QUEUE
			{
				$$ = stmt_alloc(&@$, STMT_QUEUE);
			}
		|	queue_base NUMKW NUM
			{
				$$ = $1;
				expr_free($$->queue.queue);
				$$->queue.queue = sym_expr(&@3, $3);
			}
		|	queue_base NUMKW NUM '-' NUM
			{
				$$ = $1;
				expr_free($$->queue.queue);
				$$->queue.queue = range_expr_alloc(&@$,
							sym_expr(&@3, $3),
							sym_expr(&@5, $5));
			}
		|	queue_base queue_flags
			{
				/* "queue num 0-3 bypass,fanout" (pre-0.9 syntax) */
				$$ = $1;
				$$->queue.flags |= $2;
			}
		|	queue_base FLAGS queue_flags
			{
				$$ = $1;
				$$->queue.flags |= $3;
			}
		;

queue_flags	:	queue_flag
		|	queue_flags COMMA queue_flag	{ $$ = $1 | $3; }
		;

queue_flag	:	BYPASS		{ $$ = NFT_QUEUE_FLAG_BYPASS; }
		|	FANOUT		{ $$ = NFT_QUEUE_FLAG_CPU_FANOUT; }
		;

dup_stmt	:	DUP TO expr
			{
				$$ = stmt_alloc(&@$, STMT_DUP);
				$$->dup.to = $3;
			}
		|	DUP TO expr DEVICE expr
			{
				$$ = stmt_alloc(&@$, STMT_DUP);
				$$->dup.to = $3;
				$$->dup.dev = $5;
			}
		;

fwd_stmt	:	FWD TO expr
			{
				$$ = stmt_alloc(&@$, STMT_FWD);
				$$->fwd.dev = $3;
			}
		|	FWD IP TO expr DEVICE expr
			{
				$$ = stmt_alloc(&@$, STMT_FWD);
				$$->fwd.family = NFPROTO_IPV4;
				$$->fwd.addr = $4;
				$$->fwd.dev = $6;
			}
		|	FWD IP6 TO expr DEVICE expr
			{
				$$ = stmt_alloc(&@$, STMT_FWD);
				$$->fwd.family = NFPROTO_IPV6;
				$$->fwd.addr = $4;
				$$->fwd.dev = $6;
			}
		;

assign_stmt	:	selector SET rhs
			{
				$$ = assign(state, &@$, $1, $3);
			}
		;

set_op		:	ADD	{ $$ = NFT_DYNSET_OP_ADD; }
		|	UPDATE	{ $$ = NFT_DYNSET_OP_UPDATE; }
		|	DELETE	{ $$ = NFT_DYNSET_OP_DELETE; }
		;

set_stmt	:	set_op '@' identifier '{' opt_nl set_key opt_nl '}'
			{
				$$ = set_stmt(&@$, $1, set_ref(&@3, $3, &@3),
					      $6, NULL);
			}
		|	set_op '@' identifier '{' opt_nl set_key ':' expr
			opt_nl '}'
			{
				$$ = set_stmt(&@$, $1, set_ref(&@3, $3, &@3),
					      $6, $8);
			}
		|	METER identifier meter_size '{' opt_nl set_key opt_nl '}'
			{
				$$ = meter_stmt(&@$, $2, &@2, $3, $6);
			}
		|	SET set_op expr '@' identifier
			{
				$$ = set_stmt(&@$, $2, set_ref(&@5, $5, &@5),
					      set_elem_expr_alloc(&@3, $3), NULL);
			}
		;

meter_size	:	%empty			{ $$ = 0; }
		|	SIZE number		{ $$ = $2; }
		;

objref_stmt	:	COUNTER NAME rhs
			{
				$$ = objref(&@$, NFT_OBJECT_COUNTER, $3);
			}
		|	QUOTA NAME rhs
			{
				$$ = objref(&@$, NFT_OBJECT_QUOTA, $3);
			}
		|	LIMIT NAME rhs
			{
				$$ = objref(&@$, NFT_OBJECT_LIMIT, $3);
			}
		|	SYNPROXY NAME rhs
			{
				$$ = objref(&@$, NFT_OBJECT_SYNPROXY, $3);
			}
		|	CT TIMEOUT SET rhs
			{
				$$ = objref(&@$, NFT_OBJECT_CT_TIMEOUT, $4);
			}
		|	CT EXPECTATION SET rhs
			{
				$$ = objref(&@$, NFT_OBJECT_CT_EXPECT, $4);
			}
		;

connlimit_stmt	:	CT COUNT limit_over number
			{
				$$ = stmt_alloc(&@$, STMT_CONNLIMIT);
				$$->connlimit.count = $4;
				$$->connlimit.flags = $3 ? NFT_CONNLIMIT_F_INV : 0;
			}
		;

synproxy_stmt	:	SYNPROXY synproxy_cfg
			{
				$$ = $2;
				$$->location = @$;
			}
		;

synproxy_cfg	:	%empty
			{
				$$ = stmt_alloc(&@$, STMT_SYNPROXY);
			}
		|	synproxy_cfg synproxy_opt
		;

/* The object: options, separators and a comment, in any order. */
synproxy_blk	:	%empty
			{
				$$ = obj_new(&@$, NFT_OBJECT_SYNPROXY);
			}
		|	synproxy_blk synproxy_oopt
		|	synproxy_blk stmt_sep
		|	synproxy_blk error stmt_sep
			{
				/* stock recovers inside the block */
				$$ = $1;
				yyerrok;
				CHECK_ERRORS_FREE(obj_free($1));
			}
		|	synproxy_blk obj_comment
			{
				if (obj_set_comment(state, $1, $2, &@2) < 0) {
					obj_free($1);
					YYERROR;
				}
				$$ = $1;
			}
		;

synproxy_oopt	:	MSS number
			{
				$<obj>0->synproxy.mss = $2;
				$<obj>0->synproxy.flags |= NF_SYNPROXY_OPT_MSS;
			}
		|	WSCALE number
			{
				$<obj>0->synproxy.wscale = $2;
				$<obj>0->synproxy.flags |= NF_SYNPROXY_OPT_WSCALE;
			}
		|	TIMESTAMP
			{
				$<obj>0->synproxy.flags |=
					NF_SYNPROXY_OPT_TIMESTAMP;
			}
		|	SACK_PERM
			{
				$<obj>0->synproxy.flags |=
					NF_SYNPROXY_OPT_SACK_PERM;
			}
		;

synproxy_opt	:	MSS number
			{
				$<stmt>0->synproxy.mss = $2;
				$<stmt>0->synproxy.flags |= NF_SYNPROXY_OPT_MSS;
			}
		|	WSCALE number
			{
				$<stmt>0->synproxy.wscale = $2;
				$<stmt>0->synproxy.flags |= NF_SYNPROXY_OPT_WSCALE;
			}
		|	TIMESTAMP
			{
				$<stmt>0->synproxy.flags |=
					NF_SYNPROXY_OPT_TIMESTAMP;
			}
		|	SACK_PERM
			{
				$<stmt>0->synproxy.flags |=
					NF_SYNPROXY_OPT_SACK_PERM;
			}
		;

flow_stmt	:	FLOW ADD '@' identifier
			{
				$$ = stmt_alloc(&@$, STMT_FLOW_OFFLOAD);
				$$->flow.table_name = $4;
			}
		|	FLOW OFFLOAD '@' identifier
			{
				$$ = stmt_alloc(&@$, STMT_FLOW_OFFLOAD);
				$$->flow.table_name = $4;
			}
		;

last_stmt	:	LAST
			{
				$$ = stmt_alloc(&@$, STMT_LAST);
			}
		|	LAST USED NEVER
			{
				$$ = stmt_alloc(&@$, STMT_LAST);
			}
		|	LAST USED time_arg
			{
				$$ = stmt_alloc(&@$, STMT_LAST);
				$$->last.used = time_ms(state, &@3, $3);
				$$->last.set = 1;
			}
		;

%%
