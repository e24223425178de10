/**
 * What the editor of a tested n8n line calls the things the demo talks about, so that the demo's
 * messages use the words on the screen. Measured on n8n 2.8.4 and 2.41.1. Both lines say
 * Publish, Published and Unpublish for turning a workflow's triggers on and off.
 */
export interface EditorWords {
	/** The trigger panel's button that waits for one event and runs the workflow in the editor. */
	listenButton: string;
	/** Where the list of workflows is after logging in. */
	workflowsPage: string;
	/** The other tested line's word for the button, said once where it matters. */
	otherLine: string;
}

const WORDS_2_8: EditorWords = {
	listenButton: 'Listen for test event',
	workflowsPage: 'the Overview page that opens after login',
	otherLine: 'n8n 2.41 names this button "Execute step"',
};

/**
 * n8n 2.41 opens on its Assistant page; the trigger's panel has "Execute step", then says
 * "Listening for test event" with a "Stop Listening" button.
 */
const WORDS_2_41: EditorWords = {
	listenButton: 'Execute step',
	workflowsPage: 'Overview; n8n opens on its Assistant page after login',
	otherLine: 'n8n 2.8.4 names this button "Listen for test event"',
};

export function editorWords(n8nVersion: string): EditorWords {
	const [major, minor] = n8nVersion.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 41) ? WORDS_2_41 : WORDS_2_8;
}
