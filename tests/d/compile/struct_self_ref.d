/*
 * A struct pointing at itself.
 * @options: -e
 */
struct node { struct node *next; int v; };
BEGIN { n = (struct node *)arg0; trace(n->next->next->v); }
/* SPDX-License-Identifier: MIT */
