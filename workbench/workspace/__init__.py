"""The Director's workspace: the folder every page, lesson and command shares (`folder`), the workspace file
of the encounter being prepared (`state`) and the fight's pieces drawn from it (`fight_setup`), the bestiaries
added to it (`added_bestiary`), every monster at hand on its shelf (`shelf`) and the browser's filter over
them (`bestiary_filter`), and the move of the old libraries' monsters into it (`migration`)."""
